/** A list read checks the token's session in its own statement; an ended session reads nothing. */
import assert from "node:assert/strict";
import { createApp } from "../app.ts";
import { requireUser } from "../lib/http/middleware/require_user.ts";
import { endSessions, startSession } from "../lib/identity/auth/sessions.ts";
import { manifest } from "../routes.gen.ts";
import { type TestApp, testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { issueAccessToken } from "./helpers/tokens.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

// A user signed in as a browser is: a token bound to a live session.
async function signedIn(t: TestApp): Promise<TestUser & { sessionId: string }> {
  const u = await createUser(t.deps);
  const { sessionId } = await startSession(t.store, u.id, { now: t.clock.now() });
  const { token } = await issueAccessToken(t.deps, u, { sessionId });
  return { ...u, token, sessionId, headers: { authorization: `Bearer ${token}` } };
}

async function counted(t: TestApp, path: string, init: RequestInit) {
  const before = t.store.stats.queries;
  const res = await t.request(path, init);
  const body = await res.json();
  return { status: res.status, body, queries: t.store.stats.queries - before, res };
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /api/watched checks the session in its one query; once it ended, 401`, async () => {
    await using t = await testApp({ engine });
    const u = await signedIn(t);
    const post = await t.request("/api/watched", {
      method: "POST",
      headers: { ...u.headers, "content-type": "application/json" },
      body: '{"catalogId":603}',
    });
    assert.equal(post.status, 200);
    await post.body?.cancel();

    const live = await counted(t, "/api/watched", { headers: u.headers });
    assert.equal(live.status, 200);
    assert.deepEqual(live.body.movies.map((m: { catalogId: number }) => m.catalogId), [603]);
    assert.equal(live.queries, 1);
    const empty = await counted(t, "/api/mylist", { headers: u.headers });
    assert.deepEqual([empty.status, empty.body.movies], [200, []]);

    await endSessions(t.store, u.id, { scope: "local", sessionId: u.sessionId });
    for (const path of ["/api/watched", "/api/mylist"]) {
      const ended = await counted(t, path, { headers: u.headers });
      assert.equal(ended.status, 401, path);
      assert.equal(ended.body.code, "unauthorized");
      assert.equal(ended.body.movies, undefined);
      assert.match(ended.res.headers.get("www-authenticate")!, /invalid_token/);
    }
    // Writes check the session before reading any body: an ended one is 401 even with a bad body.
    const write = await t.request("/api/mylist", {
      method: "POST",
      headers: { ...u.headers, "content-type": "application/json" },
      body: "not json",
    });
    assert.equal(write.status, 401);
    await write.body?.cancel();
  });

  Deno.test(`[${engine}] a token naming no session reads nothing once its user is deleted`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await t.store.query(
      `insert into public.user_my_list (user_id, catalog_ids) values ($1, '{7}')`,
      [u.id],
    );
    const live = await counted(t, "/api/mylist", { headers: u.headers });
    assert.deepEqual([live.status, live.body.movies.length, live.queries], [200, 1, 1]);
    await t.store.query(`delete from auth.users where id = $1`, [u.id]);
    const gone = await counted(t, "/api/mylist", { headers: u.headers });
    assert.equal(gone.status, 401);
  });
}

Deno.test("a GET handler that ignores the deferred session still answers 401 for an ended one", async () => {
  await using t = await testApp();
  const app = createApp(t.deps, {
    manifest: {
      ...manifest,
      routes: [...manifest.routes, {
        pattern: "/api/careless",
        file: "test",
        module: {
          middleware: [requireUser({ readChecksSession: true })],
          handler: { GET: (c) => c.json({ secret: "data" }) },
        },
      }],
    },
  });
  const u = await signedIn(t);
  const live = await app.request("/api/careless", { headers: u.headers });
  assert.deepEqual([live.status, await live.json()], [200, { secret: "data" }]);
  await endSessions(t.store, u.id, { scope: "global" });
  const ended = await app.request("/api/careless", { headers: u.headers });
  assert.equal(ended.status, 401);
  assert.equal((await ended.json()).secret, undefined);
});

Deno.test("a token whose session claim is not a uuid is 401, never a store error", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const { token } = await issueAccessToken(t.deps, u, { sessionId: "not-a-session" });
  for (const path of ["/api/watched", "/api/mylist"]) {
    const res = await t.request(path, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 401, path);
    await res.body?.cancel();
  }
});
