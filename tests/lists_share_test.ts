import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { addAll, json, makeList } from "./helpers/lists.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

const SLUG_URL = /^http:\/\/localhost:\d+\/s\/([A-Za-z0-9_-]{22})$/;

function slugOf(url: string): string {
  const m = SLUG_URL.exec(url);
  assert.ok(m, url);
  return m[1];
}

/** A public body never carries the owner's email, their user id or the list's id. */
function assertNothingPrivate(text: string, u: TestUser, listId: string) {
  for (const secret of [u.email, u.id, listId]) assert.ok(!text.includes(secret), secret);
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] POST /api/lists/:id/share makes a private list unlisted and GET /api/shared/:slug reads it without an account`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const id = await makeList(t, u, { name: "Top 3", description: "Mine", ranked: true });
    await addAll(t, u, id, [603, 604]);
    await t.request(`/api/lists/${id}/items/604`, json(u, "PATCH", { note: "the best" }));
    let res = await t.request(`/api/lists/${id}/share`, json(u, "POST"));
    assert.equal(res.status, 200);
    const slug = slugOf((await res.json()).shareUrl);
    const list = (await (await t.request(`/api/lists/${id}`, { headers: u.headers })).json()).list;
    assert.equal(list.visibility, "unlisted");
    res = await t.request(`/api/shared/${slug}`);
    assert.equal(res.status, 200);
    const text = await res.text();
    assertNothingPrivate(text, u, id);
    const body = JSON.parse(text);
    assert.deepEqual(body.list, {
      name: "Top 3",
      description: "Mine",
      ranked: true,
      count: 2,
      owner: null,
    });
    assert.deepEqual(body.movies.map((m: { note: string | null }) => m.note), [null, "the best"]);
    assert.equal(body.nextCursor, null);
    // With a profile, the owner shows by handle and display name only.
    await t.request("/api/me/profile", json(u, "PUT", { handle: "ana_b", displayName: "Ana" }));
    res = await t.request(`/api/shared/${slug}?limit=1`);
    const paged = await res.json();
    assert.deepEqual(paged.list.owner, { displayName: "Ana", handle: "ana_b" });
    assert.equal(paged.movies.length, 1);
    res = await t.request(`/api/shared/${slug}?cursor=${paged.nextCursor}`);
    assert.deepEqual((await res.json()).movies.map((m: { catalogId: number }) => m.catalogId), [
      604,
    ]);
  });

  Deno.test(`[${engine}] a replaced or revoked slug is 404 and a private list is unreachable through every public route`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const id = await makeList(t, u, { name: "Shh" });
    await addAll(t, u, id, [1]);
    const first = slugOf(
      (await (await t.request(`/api/lists/${id}/share`, json(u, "POST")))
        .json()).shareUrl,
    );
    const second = slugOf(
      (await (await t.request(`/api/lists/${id}/share`, json(u, "POST")))
        .json()).shareUrl,
    );
    assert.notEqual(first, second);
    let res = await t.request(`/api/shared/${first}`);
    assert.equal(res.status, 404);
    assert.equal((await res.json()).code, "list_not_found");
    assert.equal((await t.request(`/api/shared/${second}`)).status, 200);
    res = await t.request(`/api/lists/${id}/share`, json(u, "DELETE"));
    assert.equal(res.status, 204);
    const list = (await (await t.request(`/api/lists/${id}`, { headers: u.headers })).json()).list;
    assert.deepEqual([list.visibility, list.shareUrl], ["private", null]);
    for (const path of [`/api/shared/${second}`, `/api/shared/${id}`, "/api/shared/x"]) {
      res = await t.request(path);
      assert.equal(res.status, 404, path);
      await res.body?.cancel();
    }
    await t.request(
      "/api/me/profile",
      json(u, "PUT", { handle: "shh", displayName: "S", public: true }),
    );
    res = await t.request("/api/profiles/shh");
    const profile = await res.json();
    assert.deepEqual(profile.lists, []);
    // Public again through PATCH: a new link, never the revoked one.
    res = await t.request(`/api/lists/${id}`, json(u, "PATCH", { visibility: "public" }));
    const third = slugOf((await res.json()).list.shareUrl);
    assert.ok(third !== first && third !== second);
    res = await t.request("/api/profiles/shh");
    assert.equal((await res.json()).lists[0].shareUrl.endsWith(third), true);
  });

  Deno.test(`[${engine}] deleting the account kills its links`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const id = await makeList(t, u, { name: "Gone", visibility: "public" });
    const slug = slugOf(
      (await (await t.request(`/api/lists/${id}`, { headers: u.headers }))
        .json()).list.shareUrl,
    );
    assert.equal((await t.request(`/api/shared/${slug}`)).status, 200);
    const res = await t.request(
      "/api/account",
      json(u, "DELETE", { confirm: "delete my account" }),
    );
    assert.equal(res.status, 204);
    const gone = await t.request(`/api/shared/${slug}`);
    assert.equal(gone.status, 404);
    await gone.body?.cancel();
  });
}

Deno.test("public reads answer 429 rate_limited past 60 a minute from one address, then again in the next minute", async () => {
  await using t = await testApp({ env: { CLIENT_IP_HEADER: "x-forwarded-for" } });
  const from = (ip: string) => ({ headers: { "x-forwarded-for": ip } });
  for (let i = 0; i < 60; i++) {
    const path = i % 2 ? "/api/shared/AAAAAAAAAAAAAAAAAAAAAA" : "/api/profiles/nobody";
    const res = await t.request(path, from("10.0.0.1"));
    assert.equal(res.status, 404);
    await res.body?.cancel();
  }
  let res = await t.request("/api/shared/AAAAAAAAAAAAAAAAAAAAAA", from("10.0.0.1"));
  assert.equal(res.status, 429);
  assert.ok(Number(res.headers.get("retry-after")) >= 1);
  assert.equal((await res.json()).code, "rate_limited");
  res = await t.request("/api/profiles/nobody", from("10.0.0.2"));
  assert.equal(res.status, 404);
  await res.body?.cancel();
  t.clock.advance(60_000);
  res = await t.request("/api/profiles/nobody", from("10.0.0.1"));
  assert.equal(res.status, 404);
  await res.body?.cancel();
});
