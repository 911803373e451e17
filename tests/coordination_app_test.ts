/**
 * COORDINATION=postgres in the built app (docs/coordination.md): two app instances with their
 * own connection pools and nothing else in common but the database (no KV between them) share
 * the external window exactly, and the deep health report reads it from PostgreSQL; the real
 * server starts with it and stops cleanly, and refuses it without DATABASE_URL. All but the
 * last need TEST_DATABASE_URL: the embedded store cannot be shared by two instances.
 */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { PgKv } from "../lib/platform/coordination/pg_kv.ts";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { spawnServer } from "./helpers/process.ts";
import { TEST_DATABASE_URL, testDatabaseUrl } from "./helpers/store.ts";

const ADMIN_TOKEN = "coordination-admin-token";

Deno.test({
  name:
    "two instances with COORDINATION=postgres and no KV in common let 40 of 60 searches through in one window, and report the same use",
  ignore: !TEST_DATABASE_URL,
  async fn() {
    await using fake = await startFakeTmdb();
    // A second of its own far from any other run's, since the database outlives the test.
    const second = Date.parse("2030-01-01T00:00:00Z") + Math.floor(Math.random() * 3e7) * 1000;
    const clock = new FakeClock(second);
    const env = {
      ...tmdbEnv(fake),
      COORDINATION: "postgres",
      DATABASE_URL: await testDatabaseUrl(),
      ADMIN_TOKEN,
    };
    await using a = await testApp({ env, engine: "postgres", clock });
    await using b = await testApp({ env, engine: "postgres", clock });
    assert.ok(a.kv instanceof PgKv && b.kv instanceof PgKv);
    assert.notEqual(a.store, b.store, "each instance has its own pool");

    const search = async (t: typeof a, i: number) => {
      const res = await t.request(`/api/movies/search?q=shared${i}`);
      await res.body?.cancel();
      return res.status;
    };
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => search(i % 2 ? a : b, i)),
    );
    assert.equal(statuses.filter((s) => s === 200).length, 40);
    assert.equal(statuses.filter((s) => s === 429).length, 20);
    assert.equal(fake.requests.length, 40);
    assert.equal(clock.now(), second, "nobody waited: the clock never moved");

    for (const t of [a, b]) {
      const res = await t.request("/api/health?deep=1", {
        headers: { "x-admin-token": ADMIN_TOKEN },
      });
      const report = await res.json();
      assert.deepEqual(report.kv, { ok: true });
      assert.equal(report.window.used, 40);
    }
  },
});

Deno.test({
  name:
    "the server with COORDINATION=postgres says so when it starts, opens no KV file, and stops cleanly on SIGTERM",
  ignore: !TEST_DATABASE_URL,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "movies-coordination-" });
    try {
      await using server = await spawnServer({
        DATABASE_URL: await testDatabaseUrl(),
        COORDINATION: "postgres",
        DATA_DIR: dir,
        DENO_KV_PATH: `${dir}/kv.sqlite3`,
      });
      assert.ok(server.url, server.lines.join("\n"));
      const listening = JSON.parse(server.lines.find((l) => l.includes('"msg":"listening"'))!);
      assert.equal(listening.coordination, "postgres");
      const res = await fetch(`${server.url}/api/health`);
      assert.deepEqual(await res.json(), { status: "ok" });
      await assert.rejects(Deno.stat(`${dir}/kv.sqlite3`), Deno.errors.NotFound);
      server.kill("SIGTERM");
      assert.equal((await server.exited).code, 0, server.lines.join("\n"));
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test("the server refuses COORDINATION=postgres without DATABASE_URL in one line", async () => {
  const dir = await Deno.makeTempDir({ prefix: "movies-coordination-" });
  try {
    await using server = await spawnServer({ COORDINATION: "postgres", DATA_DIR: dir });
    assert.equal(server.url, "");
    assert.equal((await server.exited).code, 1);
    assert.ok(
      server.lines.some((l) =>
        /^Invalid configuration: COORDINATION is postgres, which needs DATABASE_URL/.test(l)
      ),
      server.lines.join("\n"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
