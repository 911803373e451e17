import assert from "node:assert/strict";
import { startSession } from "../lib/identity/auth/sessions.ts";
import { migrate, readMigrations } from "../lib/platform/store/migrate.ts";
import { openPgliteStore } from "../lib/platform/store/pglite.ts";
import { openPostgresStore } from "../lib/platform/store/postgres.ts";
import { testApp } from "./helpers/app.ts";
import { TEST_DATABASE_URL, testDatabaseUrl, testStore } from "./helpers/store.ts";
import { startTcpProxy, viaProxy } from "./helpers/tcp_proxy.ts";
import { issueAccessToken } from "./helpers/tokens.ts";
import { createUser } from "./helpers/users.ts";

async function assertUnavailable(res: Response, code = "store_unavailable") {
  assert.equal(res.status, 503);
  assert.match(res.headers.get("content-type") ?? "", /application\/problem\+json/);
  assert.ok(res.headers.get("retry-after"));
  const body = await res.json();
  assert.equal(body.code, code);
  assert.doesNotMatch(JSON.stringify(body), /select|ECONN|postgres/i);
}

Deno.test("[embedded] a call waiting behind a held transaction fails 503 store_unavailable; neither commits", async () => {
  const store = await openPgliteStore({ timeoutMs: 200 });
  try {
    await store.exec("create table t (n int)");
    const release = Promise.withResolvers<void>();
    const holder = store.transaction(async (tx) => {
      await tx.query("insert into t values (1)");
      await release.promise;
    });
    const held = assert.rejects(holder, { code: "store_unavailable" }); // it outlives its bound
    await assert.rejects(
      store.transaction((tx) => tx.query("insert into t values (2)")),
      (error: { status?: number; code?: string }) =>
        error.status === 503 && error.code === "store_unavailable",
    );
    await assert.rejects(store.query("select 1"), { code: "store_unavailable" });
    release.resolve();
    await held;
    // The held transaction rolled back, the abandoned insert of 2 never ran; the store answers.
    assert.deepEqual(await store.query("select n from t order by n"), []);
  } finally {
    await store.close();
  }
});

Deno.test({
  name:
    "[postgres] a frozen or stopped database answers 503 store_unavailable and health 503; the service recovers by itself",
  ignore: !TEST_DATABASE_URL,
  async fn() {
    // Migrated once through the direct connection.
    await (await testStore("postgres"))[Symbol.asyncDispose]();
    const target = new URL(await testDatabaseUrl());
    await using proxy = startTcpProxy({ hostname: target.hostname, port: Number(target.port) });
    const store = openPostgresStore(viaProxy(await testDatabaseUrl(), proxy), { timeoutMs: 1_000 });
    await using t = await testApp({ store });
    try {
      const u = await createUser(t.deps);
      const list = () => t.request("/api/watched", { headers: u.headers });
      assert.equal((await list()).status, 200);

      proxy.freeze();
      await assertUnavailable(await list());
      await assertUnavailable(await t.request("/api/health"), "not_ready");
      await assertUnavailable(
        await t.request("/api/watched", {
          method: "POST",
          headers: { ...u.headers, "content-type": "application/json" },
          body: JSON.stringify({ catalogId: 5 }),
        }),
      );
      proxy.resume();
      assert.equal((await list()).status, 200);
      assert.equal((await t.request("/api/health")).status, 200);

      proxy.stop();
      await assertUnavailable(await list());
      await assertUnavailable(await t.request("/api/health"), "not_ready");
      proxy.resume();
      const back = await list();
      assert.equal(back.status, 200, await back.clone().text());
      await back.body?.cancel();
      assert.equal(t.logs.filter((line) => line.code === "internal_error").length, 0);
    } finally {
      await store.close();
    }
  },
});

Deno.test("[embedded] a list read failing on the store answers after one store call: the session is not checked again after the error", async () => {
  const store = await openPgliteStore({ timeoutMs: 300 });
  await migrate(store, await readMigrations());
  await using t = await testApp({ store });
  try {
    const u = await createUser(t.deps);
    const { sessionId } = await startSession(t.store, u.id, { now: t.clock.now() });
    const { token } = await issueAccessToken(t.deps, u, { sessionId });
    const headers = { authorization: `Bearer ${token}` };
    assert.equal((await t.request("/api/watched", { headers })).status, 200);

    const release = Promise.withResolvers<void>();
    const holder = store.transaction(() => release.promise).catch(() => {});
    const before = store.stats.queries;
    await assertUnavailable(await t.request("/api/watched", { headers }));
    // One statement tried (the read with its session check folded in), not a second session
    // query waiting out another bound after the first failed.
    assert.equal(store.stats.queries - before, 1);
    release.resolve();
    await holder;
    assert.equal((await t.request("/api/watched", { headers })).status, 200);
  } finally {
    await store.close();
  }
});
