import assert from "node:assert/strict";
import type { CatalogService, SearchRow } from "../lib/catalog/types.ts";
import type { FakeClock } from "../lib/clock.ts";
import {
  createCatalogImportService,
  failInterruptedImports,
  INTERRUPTED,
  scheduledImport,
  takeImportLock,
} from "../lib/import/mod.ts";
import { Problem } from "../lib/problem.ts";
import { testApp } from "./helpers/app.ts";
import { settledApp } from "./helpers/settled.ts";
import { importsSettled } from "./helpers/imports.ts";

/** A catalog in memory: popular pages of ids, a set of detailed ids, call counts and a gate. */
function stubCatalog(
  pages: number[][],
  options: { failing?: Set<number>; failPages?: boolean | Error } = {},
) {
  const detailed = new Set<number>();
  const calls = { popular: [] as number[], prefetch: [] as number[] };
  let active = 0;
  let peak = 0;
  let gate: Promise<void> = Promise.resolve();
  let prefetchesStarted = 0;
  let heldFrom = Infinity;
  let heldGate: Promise<void> = Promise.resolve();
  const { promise: heldReached, resolve: reachHeld } = Promise.withResolvers<void>();
  const row = (id: number): SearchRow => ({
    id,
    title: `Movie ${id}`,
    original_title: `Movie ${id}`,
    poster_path: "/p.jpg",
    release_date: "2020-01-01",
    vote_average: 7,
    genre_ids: [],
  });
  const call = async <T>(fn: () => T): Promise<T> => {
    active++;
    peak = Math.max(peak, active);
    try {
      await gate;
      await new Promise((r) => setTimeout(r, 1));
      return fn();
    } finally {
      active--;
    }
  };
  const catalog: CatalogService = {
    search: () => Promise.reject(new Error("not used")),
    movie: () => Promise.reject(new Error("not used")),
    hotMovie: () => undefined,
    popular: (page) =>
      call(() => {
        calls.popular.push(page);
        if (options.failPages instanceof Error) throw options.failPages;
        if (options.failPages) throw new Problem(500, "upstream_error", "TMDB said no");
        const ids = pages[page - 1] ?? [];
        return {
          value: { page, totalPages: pages.length, results: ids.map(row) },
          headers: {},
        };
      }),
    staleIds: (ids) => Promise.resolve(ids.filter((id) => !detailed.has(id))),
    prefetch: async (ids) => {
      if (prefetchesStarted++ >= heldFrom) {
        reachHeld();
        await heldGate;
      }
      return await call(() => {
        calls.prefetch.push(...ids);
        const failed = ids.filter((id) => options.failing?.has(id));
        for (const id of ids) if (!failed.includes(id)) detailed.add(id);
        return {
          fetched: ids.length - failed.length,
          failed: failed.map((id) => ({ id, error: "upstream answered 500" })),
        };
      });
    },
  };
  return {
    catalog,
    detailed,
    calls,
    peak: () => peak,
    /** Lets `n` detail calls through, then holds the rest; `reached` once one is held. */
    holdDetailsAfter(n: number): { reached: Promise<void>; release: () => void } {
      const { promise, resolve } = Promise.withResolvers<void>();
      heldFrom = n;
      heldGate = promise;
      return { reached: heldReached, release: resolve };
    },
    /** Holds every call until the returned function is called. */
    hold(): () => void {
      const { promise, resolve } = Promise.withResolvers<void>();
      gate = promise;
      return () => {
        gate = Promise.resolve();
        resolve();
      };
    },
  };
}

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

Deno.test("a run reads every page, fetches details of the stale movies only, with at most `concurrency` calls at once", async () => {
  await using t = await testApp();
  const stub = stubCatalog([range(1, 20), range(21, 20), [...range(41, 19), 1]]);
  for (const id of [2, 3, 4]) stub.detailed.add(id);
  const svc = createCatalogImportService(t.deps, { catalog: stub.catalog, concurrency: 4 });
  const started = await svc.start({ pages: 3 });
  assert.equal(started.status, "running");
  const outcome = await started.done;
  assert.equal(outcome.status, "succeeded");
  assert.deepEqual(stub.calls.popular.sort(), [1, 2, 3]);
  // 59 distinct movies, 3 already detailed: 56 fetched, each once.
  assert.deepEqual(
    stub.calls.prefetch.sort((a, b) => a - b),
    range(1, 59).filter((id) => id > 4 || id === 1),
  );
  assert.ok(stub.peak() <= 4, `peak ${stub.peak()}`);
  const [run] = await svc.runs();
  assert.deepEqual(
    { ...run, startedAt: undefined, finishedAt: undefined },
    {
      id: started.importId,
      trigger: "manual",
      status: "succeeded",
      pages: 3,
      moviesSeen: 60,
      moviesUpserted: 59,
      detailsFetched: 56,
      errors: 0,
      lastError: null,
      startedAt: undefined,
      finishedAt: undefined,
    },
  );
  assert.equal(run.startedAt, new Date(t.clock.now()).toISOString());
  assert.ok(run.finishedAt);
});

Deno.test("a movie whose details fail is counted and logged, and the run still succeeds", async () => {
  await using t = await testApp();
  const stub = stubCatalog([range(1, 10)], { failing: new Set([7]) });
  const svc = createCatalogImportService(t.deps, { catalog: stub.catalog });
  const outcome = await (await svc.start({ pages: 1 })).done;
  assert.equal(outcome.status, "succeeded");
  assert.equal(outcome.detailsFetched, 9);
  assert.equal(outcome.errors, 1);
  assert.equal(outcome.lastError, "movie 7: upstream answered 500");
  assert.ok(t.logs.some((l) => l.msg === "catalog import step failed" && l.catalogId === 7));
});

Deno.test("a run whose every page fails is recorded failed with the page's error", async () => {
  await using t = await testApp();
  const stub = stubCatalog([range(1, 10), range(11, 10)], { failPages: true });
  const svc = createCatalogImportService(t.deps, { catalog: stub.catalog });
  const outcome = await (await svc.start({ pages: 2 })).done;
  assert.equal(outcome.status, "failed");
  assert.equal(outcome.errors, 2);
  assert.match(outcome.lastError ?? "", /^page [12]: upstream_error: TMDB said no$/);
  assert.equal((await svc.runs())[0].status, "failed");
});

Deno.test("a failure that is not a problem is listed as internal_error; its text, which may quote SQL, only reaches the log", async () => {
  await using t = await testApp();
  const sqlError = new Error('duplicate key value violates unique constraint "movies_pkey"');
  const stub = stubCatalog([range(1, 10)], { failPages: sqlError });
  const svc = createCatalogImportService(t.deps, { catalog: stub.catalog });
  const outcome = await (await svc.start({ pages: 1 })).done;
  assert.equal(outcome.lastError, "page 1: internal_error");
  const [listed] = await svc.runs();
  assert.equal(listed.lastError, "page 1: internal_error");
  assert.ok(
    t.logs.some((l) =>
      l.msg === "catalog import step failed" && String(l.error).includes("movies_pkey")
    ),
  );
});

Deno.test("progress is written to the run's row while it goes on, and a second start answers 409 import_running", async () => {
  await using t = await settledApp();
  const stub = stubCatalog([range(1, 20), range(21, 20)]);
  // Let the pages and some details through, then hold the rest.
  const held = stub.holdDetailsAfter(25);
  const svc = createCatalogImportService(t.deps, { catalog: stub.catalog, concurrency: 2 });
  const first = await svc.start({ pages: 2 });
  await assert.rejects(
    svc.start({ pages: 1 }),
    (e) => e instanceof Problem && e.status === 409 && e.code === "import_running",
  );
  await held.reached;
  await t.settled(); // the progress written so far is in the row
  const release = held.release;
  const [mid] = await svc.runs();
  assert.equal(mid.status, "running");
  assert.equal(mid.finishedAt, null);
  assert.equal(mid.moviesSeen, 40);
  assert.ok(mid.detailsFetched > 0 && mid.detailsFetched < 40, `mid ${mid.detailsFetched}`);
  release();
  assert.equal((await first.done).detailsFetched, 40);
  // The lock went with the run: a new one starts.
  const second = await svc.start({ pages: 1 });
  assert.equal((await second.done).detailsFetched, 0);
});

Deno.test("a run whose lease ran out and was taken by another instance stops and is recorded failed", async () => {
  await using t = await testApp();
  const clock = t.clock as FakeClock;
  const stub = stubCatalog([range(1, 20), range(21, 20)]);
  const svc = createCatalogImportService(t.deps, {
    catalog: stub.catalog,
    concurrency: 1,
    lockTtlMs: 600,
  });
  const run = await svc.start({ pages: 2 });
  // The holder stalls past its lease; another instance takes the lock meanwhile.
  const release = stub.hold();
  clock.advance(1000);
  const other = await takeImportLock(t.kv, crypto.randomUUID(), { clock, ttlMs: 60_000 });
  assert.ok(other);
  release();
  const outcome = await run.done;
  assert.equal(outcome.status, "failed");
  assert.equal(outcome.lastError, "stopped: another instance took the import lock");
  assert.ok(stub.calls.prefetch.length < 40);
  await other.release();
});

Deno.test("at startup, running runs are marked failed when no one holds the lock, and left alone while it is held", async () => {
  await using t = await testApp();
  const id = crypto.randomUUID();
  await t.store.query(
    `insert into public.catalog_imports (id, trigger, status, pages, movies_seen, started_at)
     values ($1, 'cron', 'running', 5, 40, $2)`,
    [id, new Date(t.clock.now() - 60_000)],
  );
  // A run another instance started after the look at the lock is not touched.
  const younger = crypto.randomUUID();
  await t.store.query(
    `insert into public.catalog_imports (id, trigger, status, pages, started_at)
     values ($1, 'manual', 'running', 5, $2)`,
    [younger, new Date(t.clock.now() + 1_000)],
  );
  const lock = await takeImportLock(t.kv, crypto.randomUUID(), { clock: t.clock });
  assert.deepEqual(await failInterruptedImports(t.deps), []);
  await lock!.release();
  assert.deepEqual(await failInterruptedImports(t.deps), [id]);
  const [row] = await t.store.query<{ status: string; last_error: string; finished_at: Date }>(
    `select status, last_error, finished_at from public.catalog_imports where id = $1`,
    [id],
  );
  assert.equal(row.status, "failed");
  assert.equal(row.last_error, INTERRUPTED);
  assert.equal(row.last_error, "interrupted by a restart");
  assert.equal(new Date(row.finished_at).getTime(), t.clock.now());
  assert.deepEqual(await failInterruptedImports(t.deps), []);
  const [other] = await t.store.query<{ status: string }>(
    `select status from public.catalog_imports where id = $1`,
    [younger],
  );
  assert.equal(other.status, "running");
});

Deno.test("a new run marks a run left running by a dead holder failed before it starts", async () => {
  await using t = await testApp();
  const id = crypto.randomUUID();
  await t.store.query(
    `insert into public.catalog_imports (id, trigger, status, pages) values ($1, 'manual', 'running', 5)`,
    [id],
  );
  const stub = stubCatalog([range(1, 3)]);
  const svc = createCatalogImportService(t.deps, { catalog: stub.catalog });
  const run = await svc.start({ pages: 1 });
  await run.done;
  const runs = await svc.runs();
  assert.deepEqual(
    runs.map((r) => [r.id, r.status]).sort(),
    [
      [id, "failed"],
      [run.importId, "succeeded"],
    ].sort(),
  );
});

Deno.test("a cron tick starts a cron run, and a tick while a run is going logs and skips", async () => {
  await using t = await testApp();
  const stub = stubCatalog([range(1, 5)]);
  const svc = createCatalogImportService(t.deps, { catalog: stub.catalog });
  const release = stub.hold();
  const manual = await svc.start({ pages: 1 });
  assert.equal(await scheduledImport(svc, t.deps), null);
  assert.ok(t.logs.some((l) => l.msg === "catalog import cron skipped: a run is in progress"));
  release();
  await manual.done;
  (t.clock as FakeClock).advance(60_000);
  const tick = await scheduledImport(svc, t.deps);
  assert.equal(tick?.status, "succeeded");
  const [latest] = await svc.runs();
  assert.equal(latest.trigger, "cron");
  assert.equal(latest.pages, 5);
  await importsSettled(t.deps);
});

Deno.test("the run list holds the last 20 runs, newest first", async () => {
  await using t = await testApp();
  await t.store.query(
    `insert into public.catalog_imports (trigger, status, pages, started_at, finished_at)
     select 'cron', 'succeeded', 5, now() - g * interval '1 day', now() - g * interval '1 day'
     from generate_series(1, 25) g`,
  );
  const svc = createCatalogImportService(t.deps, { catalog: stubCatalog([]).catalog });
  const runs = await svc.runs();
  assert.equal(runs.length, 20);
  const starts = runs.map((r) => Date.parse(r.startedAt));
  assert.deepEqual(starts, [...starts].sort((a, b) => b - a));
});
