/**
 * Two server processes sharing one KV file and one PostgreSQL, as two instances behind a
 * balancer: the external window is one for both, and neither answers 5xx under a burst.
 * Needs TEST_DATABASE_URL (the embedded store admits one process per directory).
 */
import assert from "node:assert/strict";
import { detailBody, startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { spawnServer } from "./helpers/process.ts";
import { TEST_DATABASE_URL, testDatabaseUrl } from "./helpers/store.ts";
import { migrate, readMigrations } from "../lib/platform/store/migrate.ts";
import { openPostgresStore } from "../lib/platform/store/postgres.ts";
import { windowCounts } from "./helpers/window_counts.ts";

const IDS = Array.from({ length: 20 }, (_, i) => 919_000 + i);

Deno.test({
  name:
    "two processes on one KV file and one PostgreSQL: 400 concurrent searches and details, at most 40 calls a second reach the movie database, no 5xx",
  ignore: !TEST_DATABASE_URL,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using fake = await startFakeTmdb({ latencyMs: 20 });
    for (const id of IDS) fake.movies.set(id, detailBody(id, { title: `Shared ${id}` }));
    const dir = await Deno.makeTempDir({ prefix: "movies-two-" });
    const store = openPostgresStore(await testDatabaseUrl(), { max: 1 });
    const forget = () =>
      store.query("delete from public.movies where catalog_id = any($1::int[])", [IDS]);
    try {
      // The schema first: run alone, on a fresh database, no earlier test has applied it.
      await migrate(store, await readMigrations());
      await forget();
      const env = {
        ...tmdbEnv(fake),
        DATABASE_URL: await testDatabaseUrl(),
        DENO_KV_PATH: `${dir}/kv.sqlite3`,
      };
      // One after the other: both find the migrations applied on start.
      await using a = await spawnServer({ ...env, DATA_DIR: `${dir}/a` });
      await using b = await spawnServer({ ...env, DATA_DIR: `${dir}/b` });
      assert.ok(a.url && b.url, [...a.lines, ...b.lines].join("\n"));
      fake.requests.length = 0;

      const paths = Array.from(
        { length: 400 },
        (_, i) =>
          i % 2 ? `/api/movies/${IDS[(i >> 1) % IDS.length]}` : `/api/movies/search?q=burst+${i}`,
      );
      const answers = await Promise.all(paths.map(async (path, i) => {
        const res = await fetch(`${i % 4 < 2 ? a.url : b.url}${path}`);
        return { path, status: res.status, body: await res.json() };
      }));

      const failed = answers.filter((r) => r.status >= 500);
      assert.deepEqual(failed.slice(0, 3), [], `${failed.length} answers were 5xx`);
      for (const r of answers) {
        assert.ok([200, 429].includes(r.status), `${r.path}: ${r.status} ${r.body.code}`);
        if (r.status === 429) assert.equal(r.body.code, "rate_limited");
      }
      const details = answers.filter((r) => r.path.startsWith("/api/movies/9"));
      assert.ok(details.every((r) => r.status === 200), "a detail waits for the window");
      assert.ok(answers.some((r) => r.path.includes("search") && r.status === 200));
      assert.ok(answers.some((r) => r.status === 429), "the burst filled the shared window");

      const busiest = Math.max(...windowCounts(fake.requests.map((r) => r.at)).values());
      assert.ok(busiest <= 40, `the fake saw ${busiest} calls in one window`);
      // A detail is fetched at most once per process; the other finds it in the store.
      for (const id of IDS) {
        const calls = fake.requests.filter((r) => r.path === `/movie/${id}`).length;
        assert.ok(calls >= 1 && calls <= 2, `movie ${id} fetched ${calls} times`);
      }
    } finally {
      await forget().catch(() => {});
      await store.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
