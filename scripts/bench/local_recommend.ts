/**
 * The local recommender (docs/recommend.md, "Local picks") over 100,000 stored movies with
 * features as TMDB gives them (genres, keywords, a director, 5 cast, some collections, languages,
 * years, runtimes, popularity, votes): GET /api/recommend/local for a user with 5,000 rated films
 * (p50 and p99) against a 60-film paged list read (GET /api/watched?limit=60) in the same run;
 * "more like this" on a cold index (the first call of a process builds it) and a warm one; the
 * background build a process starts at start-up (the event loop's longest blocked slice and
 * health's p99 meanwhile, against the same measured idle, and "more like this" answered from one
 * statement meanwhile); and the memory the index adds. Targets: p50 <= 50 ms on the embedded store and <= 3x the list
 * read; the index adds <= 50 MB of RSS.
 */
import { testApp } from "@/tests/helpers/app.ts";
import { FEATURE_MOVIES_SQL, pct, timed } from "./world/feature_movies.ts";
import { createUser } from "@/tests/helpers/users.ts";
import { startSession } from "@/lib/identity/auth/sessions.ts";
import { issueAccessToken } from "@/tests/helpers/tokens.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { createLocalRecommendService, similarMovies } from "@/lib/recommend/local/mod.ts";
import { currentIndex, indexBytes } from "@/lib/recommend/local/feature_index.ts";

const MOVIES = 100_000;
const RATED = 5_000;
const ROUNDS = 100;
const MB = 1024 * 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The longest gap between 1 ms timers until `stop` settles: how long the event loop was held. */
async function longestBlock(stop: Promise<unknown>): Promise<number> {
  let going = true;
  stop.finally(() => going = false);
  let last = performance.now();
  let max = 0;
  while (going) {
    await sleep(1);
    const now = performance.now();
    max = Math.max(max, now - last);
    last = now;
  }
  return max;
}

/** Runs `fn` every `everyMs` until `stop` settles; each run's time. */
async function every(
  everyMs: number,
  stop: Promise<unknown>,
  fn: () => Promise<unknown>,
): Promise<number[]> {
  let going = true;
  stop.finally(() => going = false);
  const times: number[] = [];
  while (going) {
    times.push(await timed(fn));
    await sleep(everyMs);
  }
  return times;
}

/** Prints latency, cold and warm "more like this", the background build, and memory. */
export default async function bench(): Promise<void> {
  await using t = await testApp({ record: false });
  let start = performance.now();
  await t.store.query(FEATURE_MOVIES_SQL, [MOVIES]);
  console.log(`seeded ${MOVIES} movies in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  const u = await createUser(t.deps);
  const { sessionId } = await startSession(t.store, u.id, { now: t.clock.now() });
  const { token } = await issueAccessToken(t.deps, u, { sessionId });
  const headers = { authorization: `Bearer ${token}` };
  await t.store.query(
    `insert into public.user_watched_movies (user_id, catalog_id, created_at, rating)
     select $1, g * 19, now() - g * interval '1 minute', 1 + (g * 7) % 10
       from generate_series(1, $2::int) g`,
    [u.id, RATED],
  );

  // Memory: PGlite's own memory grows with the rows it reads, so they are read once first; the
  // index is then built on a store object of its own and what it adds is measured.
  await t.store.query(
    `select catalog_id, genres, keywords, directors, actors, collection_id, collection_name,
            original_language, year, runtime, popularity, vote_average, vote_count
       from public.movies`,
  );
  const fresh = (): Store => ({ query: t.store.query.bind(t.store) }) as unknown as Store;
  // With --v8-flags=--expose-gc the figures are what stays after a collection.
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  const usage = () => {
    gc();
    gc();
    const m = Deno.memoryUsage();
    return { rss: m.rss, v8: m.heapUsed + m.external };
  };
  // Three indexes kept alive at once: the first absorbs what reading them leaves in the engine,
  // the next two are what an index adds.
  start = performance.now();
  const first = await currentIndex(fresh(), { now: t.clock.now() });
  const buildMs = performance.now() - start;
  const m1 = usage();
  const second = await currentIndex(fresh(), { now: t.clock.now() });
  const third = await currentIndex(fresh(), { now: t.clock.now() });
  const m3 = usage();
  console.log(
    `index of ${first.slots.size} movies, ${first.keys.length} features: built in ${
      buildMs.toFixed(0)
    } ms; per index RSS +${((m3.rss - m1.rss) / 2 / MB).toFixed(1)} MB, V8 heap + external +${
      ((m3.v8 - m1.v8) / 2 / MB).toFixed(1)
    } MB, of which typed arrays ${(indexBytes(second) / MB).toFixed(1)} MB${
      "gc" in globalThis ? ", after collections" : " (run with --v8-flags=--expose-gc)"
    } (target: RSS <= 50 MB; ${third.count} slots)`,
  );

  // The background build: health every 20 ms and the event loop's longest block, idle for 2 s
  // (the baseline of this run), then while a build on a store object of its own runs, with
  // "more like this" asked every 50 ms meanwhile (answered from one statement until it is done).
  const health = async () => {
    const res = await t.request("/api/health");
    if (res.status !== 200) throw new Error(`health answered ${res.status}`);
    await res.body?.cancel();
  };
  const idle = sleep(2000);
  const [idleBlock, idleHealth] = await Promise.all([longestBlock(idle), every(20, idle, health)]);
  const service = createLocalRecommendService({ ...t.deps, store: fresh() });
  start = performance.now();
  const ready = service.warm().then(() => performance.now() - start);
  let n = 0;
  const [bgMs, bgBlock, bgHealth, coldSql] = await Promise.all([
    ready,
    longestBlock(ready),
    every(20, ready, health),
    every(50, ready, () => service.similar(19 * (++n), { limit: 12 })),
  ]);
  console.log(
    `background build ${bgMs.toFixed(0)} ms: longest event-loop block ${
      bgBlock.toFixed(0)
    } ms (idle ${idleBlock.toFixed(0)} ms); health p50 ${pct(bgHealth, 0.5).toFixed(1)} ms p99 ${
      pct(bgHealth, 0.99).toFixed(1)
    } ms (idle p99 ${pct(idleHealth, 0.99).toFixed(1)} ms, ${bgHealth.length} asked); ` +
      `more like this meanwhile from the statement p50 ${pct(coldSql, 0.5).toFixed(1)} ms max ${
        Math.max(...coldSql).toFixed(1)
      } ms (${coldSql.length} asked)`,
  );

  // "More like this": cold (a process's first call builds the index) and warm.
  const deps = (store: Store) => ({ store, clock: t.clock });
  await similarMovies(t.deps, 1, { limit: 12 });
  const colds: number[] = [];
  for (let i = 0; i < 3; i++) {
    colds.push(await timed(() => similarMovies(deps(fresh()), 19 * (i + 1), { limit: 12 })));
  }
  const warms: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    warms.push(await timed(() => similarMovies(t.deps, 1 + i * 997, { limit: 12 })));
  }
  const warmHttp: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    warmHttp.push(
      await timed(async () => {
        const res = await t.request(`/api/movies/${1 + i * 991}/similar`);
        await res.text();
      }),
    );
  }
  console.log(
    `more like this: cold ${pct(colds, 0.5).toFixed(0)} ms (median of 3), warm p50 ${
      pct(warms, 0.5).toFixed(1)
    } ms p99 ${pct(warms, 0.99).toFixed(1)} ms; GET /api/movies/:id/similar warm p50 ${
      pct(warmHttp, 0.5).toFixed(1)
    } ms; cold/warm ${(pct(colds, 0.5) / pct(warms, 0.5)).toFixed(0)}x`,
  );

  // Local picks against a 60-film page of the watched list, alternating rounds.
  const get = (path: string) => async () => {
    const res = await t.request(path, { headers });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    await res.text();
  };
  const picks = get("/api/recommend/local");
  const list = get("/api/watched?limit=60");
  for (let i = 0; i < 5; i++) await picks().then(list);
  const [ps, ls]: number[][] = [[], []];
  for (let i = 0; i < ROUNDS; i++) {
    ps.push(await timed(picks));
    ls.push(await timed(list));
  }
  const p50 = pct(ps, 0.5);
  const l50 = pct(ls, 0.5);
  console.log(
    `local picks (${RATED} rated, ${MOVIES} movies): p50 ${p50.toFixed(1)} ms, p99 ${
      pct(ps, 0.99).toFixed(1)
    } ms; 60-film list read p50 ${l50.toFixed(1)} ms; ratio ${(p50 / l50).toFixed(2)} ` +
      `(targets: p50 <= 50 ms, ratio <= 3)`,
  );
}
