/** GET /api/health?deep=1 (docs/faults.md): the operator's report, behind the admin token. */
import assert from "node:assert/strict";
import { readMigrations } from "../lib/platform/store/migrate.ts";
import type { Store } from "../lib/platform/store/mod.ts";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { testStore } from "./helpers/store.ts";

const ADMIN = { ADMIN_TOKEN: "health-admin-token" };
const withToken = { headers: { "x-admin-token": ADMIN.ADMIN_TOKEN } };

Deno.test("GET /api/health?deep=1 answers 401 without or with a wrong admin token, 400 for deep=2", async () => {
  await using t = await testApp({ env: ADMIN });
  for (const init of [{}, { headers: { "x-admin-token": "wrong" } }]) {
    const res = await t.request("/api/health?deep=1", init);
    assert.equal(res.status, 401);
    assert.equal((await res.json()).code, "unauthorized");
  }
  const bad = await t.request("/api/health?deep=2", withToken);
  assert.equal(bad.status, 400);
  assert.equal((await bad.json()).code, "invalid_query");
  const cheap = await t.request("/api/health");
  assert.deepEqual(await cheap.json(), { status: "ok" });
});

Deno.test("GET /api/health?deep=1 reports the store's migration, KV, the window's use and the version", async () => {
  await using tmdb = await startFakeTmdb();
  await using t = await testApp({ env: { ...ADMIN, ...tmdbEnv(tmdb) } });
  assert.equal((await t.request("/api/movies/84892")).status, 200);
  const res = await t.request("/api/health?deep=1", withToken);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const report = await res.json();
  const latest = (await readMigrations()).at(-1)!.version;
  assert.equal(report.status, "ok");
  assert.deepEqual(report.store, { ok: true, migration: latest });
  assert.deepEqual(report.kv, { ok: true });
  assert.equal(report.window.used, 1);
  assert.match(report.window.resetAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  assert.equal(typeof report.version, "string");
  assert.ok(report.version.length > 0);
});

Deno.test("GET /api/health?deep=1 answers 503 naming the failing store, with KV still ok", async () => {
  await using real = await testStore();
  const failing: Store = Object.assign(Object.create(real), {
    query: () => Promise.reject(new Error("connection refused")),
  });
  await using t = await testApp({ env: ADMIN, store: failing });
  const res = await t.request("/api/health?deep=1", withToken);
  assert.equal(res.status, 503);
  assert.match(res.headers.get("content-type") ?? "", /^application\/problem\+json/);
  const problem = await res.json();
  assert.equal(problem.code, "unhealthy");
  assert.equal(problem.detail, "Failing: store.");
  const report = problem.report;
  assert.equal(report.status, "unavailable");
  assert.deepEqual(report.store, { ok: false, migration: null });
  assert.deepEqual(report.kv, { ok: true });
});
