import assert from "node:assert/strict";
import { createCatalogService } from "../lib/catalog/mod.ts";
import type { Clock } from "../lib/core/clock.ts";
import {
  createCatalogImportService,
  failInterruptedImports,
  INTERRUPTED,
} from "../lib/catalog/import/mod.ts";
import { testApp } from "./helpers/app.ts";
import { perWindow, SettlingClock, timedFetch } from "./helpers/sent_calls.ts";
import { importsSettled, trackImports } from "./helpers/catalog_imports.ts";
import { type FakeTmdb, popularId, startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";

const TOKEN = "admin-token-for-tests";

/** The ids the fake's detail route was asked for, in order. */
function detailIds(fake: FakeTmdb): number[] {
  return fake.requests.flatMap((r) => {
    const m = /^\/movie\/(\d+)$/.exec(r.path);
    return m ? [Number(m[1])] : [];
  });
}

const ALL_IDS = [1, 2, 3].flatMap((page) =>
  Array.from({ length: 20 }, (_, i) => popularId(page, i))
);

async function world(options: { latencyMs?: number; clock?: Clock; fetch?: typeof fetch } = {}) {
  const fake = await startFakeTmdb({ latencyMs: options.latencyMs ?? 0 });
  const env = { ...tmdbEnv(fake), ADMIN_TOKEN: TOKEN };
  const t = await testApp({ env, clock: options.clock, fetch: options.fetch });
  const catalog = createCatalogService(t.deps);
  return {
    t,
    fake,
    catalog,
    imports: trackImports(t.deps, createCatalogImportService(t.deps, { catalog })),
    async [Symbol.asyncDispose]() {
      await importsSettled(t.deps);
      await t[Symbol.asyncDispose]();
      await fake.close();
    },
  };
}

async function detailedIds(t: { store: { query<T>(s: string): Promise<T[]> } }): Promise<number[]> {
  const rows = await t.store.query<{ catalog_id: number }>(
    `select catalog_id from public.movies
     where has_details and actors is not null and directors is not null order by catalog_id`,
  );
  return rows.map((r) => Number(r.catalog_id));
}

Deno.test("a 3-page import stores every popular movie and fetches each one's details once; a second run fetches none", async () => {
  await using w = await world();
  const res = await w.t.request("/api/admin/catalog-import", {
    method: "POST",
    headers: { "x-admin-token": TOKEN, "content-type": "application/json" },
    body: '{"pages":3}',
  });
  assert.equal(res.status, 202);
  await importsSettled(w.t.deps);

  const stored = await w.t.store.query<{ catalog_id: number }>(
    `select catalog_id from public.movies where catalog_id = any($1::integer[])`,
    [ALL_IDS],
  );
  assert.equal(stored.length, 60);
  assert.deepEqual(await detailedIds(w.t), [...ALL_IDS].sort((a, b) => a - b));
  const first = detailIds(w.fake);
  assert.equal(first.length, 60);
  assert.equal(new Set(first).size, 60, "each movie's details asked once");
  assert.equal(w.fake.requests.filter((r) => r.path === "/movie/popular").length, 3);

  const [run] = (await (await w.t.request("/api/admin/catalog-import", {
    headers: { "x-admin-token": TOKEN },
  })).json()).runs;
  assert.equal(run.status, "succeeded");
  assert.equal(run.moviesSeen, 60);
  assert.equal(run.detailsFetched, 60);

  const before = w.fake.requests.length;
  const second = await (await w.imports.start({ pages: 3 })).done;
  assert.equal(second.status, "succeeded");
  const paths = w.fake.requests.slice(before).map((r) => r.path);
  // The pages are read again (the feed changes), but nothing fresh is fetched again.
  assert.deepEqual(paths, ["/movie/popular", "/movie/popular", "/movie/popular"]);
  assert.equal(second.moviesSeen, 60);
  assert.equal(second.detailsFetched, 0);
});

Deno.test("the import stores details for popular movies the feed hides: no poster, no date, no votes", async () => {
  await using w = await world();
  const page = w.fake.popular.get(1) as { results: Record<string, unknown>[] };
  const hidden = [0, 1, 2].map((i) => page.results[i].id as number);
  page.results[0].poster_path = null;
  page.results[1].release_date = "";
  page.results[2].vote_average = 0;
  for (const [i, id] of hidden.entries()) {
    // TMDB's detail agrees with its list row: the movie really has no poster (or date, or votes).
    const detail = w.fake.movies.get(id)!;
    if (i === 0) detail.poster_path = null;
    if (i === 1) detail.release_date = "";
    if (i === 2) detail.vote_average = 0;
  }
  const run = await (await w.imports.start({ pages: 1 })).done;
  assert.equal(run.status, "succeeded");
  assert.equal(run.moviesSeen, 20);
  assert.equal(run.detailsFetched, 20);
  const detailed = await detailedIds(w.t);
  for (const id of hidden) assert.ok(detailed.includes(id), `movie ${id} has its details`);
  const [noPoster] = await w.t.store.query<{ poster_path: string; runtime: number }>(
    `select poster_path, runtime from public.movies where catalog_id = $1`,
    [hidden[0]],
  );
  assert.equal(noPoster.poster_path, "");
  assert.ok(Number(noPoster.runtime) > 0);
  // The feed itself still hides them.
  const feed = await (await w.t.request("/api/movies/popular?page=1")).json();
  for (const id of hidden) {
    assert.ok(!feed.results.some((r: { id: number }) => r.id === id), `feed hides ${id}`);
  }
});

Deno.test("a movie whose details answer 500 is counted and logged, and the run still succeeds", async () => {
  await using w = await world();
  const broken = popularId(2, 7);
  w.fake.override = (req) =>
    req.path === `/movie/${broken}`
      ? Response.json({ status_code: 11, status_message: "Internal error." }, { status: 500 })
      : undefined;
  const outcome = await (await w.imports.start({ pages: 3 })).done;
  assert.equal(outcome.status, "succeeded");
  assert.equal(outcome.errors, 1);
  assert.equal(outcome.detailsFetched, 59);
  assert.match(outcome.lastError ?? "", new RegExp(`^movie ${broken}: upstream_error`));
  assert.ok(w.t.logs.some((l) => l.msg === "catalog import step failed" && l.catalogId === broken));
  const detailed = await detailedIds(w.t);
  assert.equal(detailed.length, 59);
  assert.ok(!detailed.includes(broken));

  // The next run retries only that one.
  w.fake.override = undefined;
  const before = w.fake.requests.length;
  const retry = await (await w.imports.start({ pages: 3 })).done;
  assert.deepEqual(detailIds({ ...w.fake, requests: w.fake.requests.slice(before) }), [broken]);
  assert.equal(retry.errors, 0);
});

Deno.test("a run cut off half-way is marked failed at the next start, and the next run fetches only the rest", async () => {
  await using w = await world();
  // What the cut-off run left: the pages' light rows, half of the movies detailed, its row
  // still `running`, and no lock (its process is gone).
  for (const page of [1, 2, 3]) await w.catalog.popular(page, { skipCache: true });
  const done = ALL_IDS.filter((_, i) => i % 2 === 0);
  assert.deepEqual(await w.catalog.prefetch(done), { fetched: 30, failed: [] });
  const cutOff = crypto.randomUUID();
  await w.t.store.query(
    `insert into public.catalog_imports
       (id, trigger, status, pages, movies_seen, movies_upserted, details_fetched, started_at)
     values ($1, 'cron', 'running', 3, 60, 60, 30, $2)`,
    [cutOff, new Date(w.t.clock.now() - 60_000)],
  );

  // The start-up step main.ts runs.
  assert.deepEqual(await failInterruptedImports(w.t.deps), [cutOff]);
  const runs = await w.imports.runs();
  assert.equal(runs[0].status, "failed");
  assert.equal(runs[0].lastError, INTERRUPTED);
  assert.ok(runs[0].finishedAt);

  const before = w.fake.requests.length;
  const outcome = await (await w.imports.start({ pages: 3 })).done;
  assert.equal(outcome.status, "succeeded");
  const fetched = detailIds({ ...w.fake, requests: w.fake.requests.slice(before) });
  const rest = ALL_IDS.filter((_, i) => i % 2 === 1);
  assert.deepEqual(fetched.sort((a, b) => a - b), rest.sort((a, b) => a - b));
  assert.equal(outcome.detailsFetched, 30);
  assert.equal((await detailedIds(w.t)).length, 60);
});

Deno.test("an import with TMDB unconfigured fails: no page can be read", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: { TMDB_BASE_URL: fake.baseUrl } });
  const imports = createCatalogImportService(t.deps, { catalog: createCatalogService(t.deps) });
  const outcome = await (await imports.start({ pages: 2 })).done;
  assert.equal(outcome.status, "failed");
  assert.equal(outcome.errors, 2);
  assert.match(
    outcome.lastError ?? "",
    /^page \d: catalog_not_configured: The movie database is not configured/,
  );
  assert.equal(fake.requests.length, 0);
});

Deno.test("the catalog import keeps to its half of the shared window: never more than 20 calls in one second of the clock", async () => {
  // The clock starts at a second boundary, and a call waiting for the next window moves it on:
  // the calls are counted by the clock's time when they are sent, so no wall-clock alignment.
  const clock = new SettlingClock("2026-11-22T12:00:00.000Z");
  const calls = timedFetch(clock);
  await using w = await world({ latencyMs: 50, clock, fetch: calls.fetch });
  const outcome = await (await w.imports.start({ pages: 3 })).done;
  assert.equal(outcome.status, "succeeded");
  assert.equal(outcome.detailsFetched, 60);
  const counts = perWindow(calls.sent);
  assert.equal(counts.reduce((a, b) => a + b, 0), 63);
  // Background work leaves half of each window to people's searches and details.
  assert.ok(Math.max(...counts) <= 20, `calls per second: ${counts.join(", ")}`);
  // And it fills its half: 63 calls need three full halves and a bit of a fourth.
  assert.equal(counts[0], 20, `calls per second: ${counts.join(", ")}`);
});
