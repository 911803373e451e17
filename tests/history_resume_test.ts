import assert from "node:assert/strict";
import { createCatalogService } from "../lib/catalog/mod.ts";
import { FakeClock } from "../lib/core/clock.ts";
import { createHistoryImportService, RUN_LEASE_MS } from "../lib/library/history/import/service.ts";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { bytesOf, csvText } from "./helpers/history_files.ts";
import { serveCatalog } from "./helpers/history_import_world.ts";
import { testStore } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";

const TITLES: [string, number][] = [
  ["Fight Club", 1999],
  ["Heat", 1995],
  ["Amélie", 2001],
  ["Spirited Away", 2001],
  ["Crouching Tiger, Hidden Dragon", 2000],
  ["Late Release", 2016],
];

const FILE = csvText(
  ["Const", "Your Rating", "Date Rated", "Title", "Title Type", "Year"],
  TITLES.map(([title, year], i) => [`tt${i}`, 7, "2023-01-01", title, "Movie", year]),
);

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("timed out waiting");
}

Deno.test("progress moves as batches are applied, and a run cut off by a restart resumes at the next start from its last batch", async () => {
  // Two clocks: the instance that "dies" keeps its own, which nothing moves, so its lease
  // heartbeat stays silent as a frozen process's would (on one shared clock, moving time past
  // the lease ran that heartbeat and sometimes renewed the lease before the new instance
  // could take it).
  const clockA = new FakeClock();
  const clock = new FakeClock();
  await using store = await testStore();
  const kv = await Deno.openKv(":memory:");
  await using fakeA = await startFakeTmdb();
  serveCatalog(fakeA);
  // The first instance "dies" after two searches: its third never comes back.
  const never = Promise.withResolvers<void>();
  // Whatever happens, the blocked request ends before the fake server closes (else its close
  // would wait on it for ever and a failed assertion would hang the suite instead of failing).
  await using _unblock = { [Symbol.asyncDispose]: () => Promise.resolve(never.resolve()) };
  let searchesA = 0;
  fakeA.override = async (req) => {
    if (req.path === "/search/movie" && ++searchesA > 2) await never.promise;
    return undefined;
  };
  const tuning = { batchSize: 2, concurrency: 1 };
  await using a = await testApp({ env: tmdbEnv(fakeA), store, kv, clock: clockA });
  const user = await createUser(a.deps);
  const serviceA = createHistoryImportService(a.deps, {
    catalog: createCatalogService(a.deps),
    ...tuning,
  });
  const { importId } = await serviceA.start(user.id, bytesOf(FILE));
  const poll = async () =>
    await (await a.request(`/api/import/${importId}`, { headers: user.headers })).json();
  const partway = await until(poll, (run) => run.progress > 0);
  assert.equal(partway.status, "running");
  assert.equal(partway.progress, 2 / 6);
  assert.equal(partway.counts.matched, 2);
  assert.equal(partway.finishedAt, null);

  // The restart: the old lease lapses, a new app on the same store and KV starts and resumes.
  clock.advance(RUN_LEASE_MS + 1);
  await using fakeB = await startFakeTmdb();
  serveCatalog(fakeB);
  await using b = await testApp({ env: tmdbEnv(fakeB), store, kv, clock });
  const serviceB = createHistoryImportService(b.deps, {
    catalog: createCatalogService(b.deps),
    ...tuning,
  });
  assert.deepEqual(await serviceB.resume(), [importId]);
  await serviceB.idle();
  const run = await serviceB.get(user.id, importId);
  assert.equal(run.status, "succeeded");
  assert.equal(run.progress, 1);
  assert.deepEqual(run.counts, {
    rows: 6,
    matched: 6,
    added: 6,
    updated: 0,
    skipped: 0,
    unmatched: 0,
  });
  // It went on from the cursor: the first batch's titles were not searched again.
  const searchedB = fakeB.requests.map((r) => r.query.get("query"));
  assert.ok(!searchedB.includes("Fight Club") && !searchedB.includes("Heat"), searchedB.join());
  const watched = await store.query(
    `select catalog_id from public.user_watched_movies where user_id = $1`,
    [user.id],
  );
  assert.equal(watched.length, 6);
  // The cut-off instance, once unblocked, sees the run finished elsewhere and stops.
  never.resolve();
  await serviceA.idle();
  assert.equal((await serviceB.get(user.id, importId)).status, "succeeded");
  kv.close();
});
