/**
 * COORDINATION=postgres in the built app (docs/coordination.md): two app instances with their
 * own connection pools and nothing else in common but the database (no KV between them) share
 * the external window exactly, and the deep health report reads it from PostgreSQL. Needs
 * TEST_DATABASE_URL: the embedded store cannot be shared by two instances.
 */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/clock.ts";
import { PgKv } from "../lib/coordination/pg_kv.ts";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { TEST_DATABASE_URL } from "./helpers/store.ts";

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
      DATABASE_URL: TEST_DATABASE_URL!,
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
