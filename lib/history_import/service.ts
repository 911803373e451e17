/**
 * The history import as a service (contract section 11): `start` reads the file, records the
 * run with its units and carries it on in the background under a KV lease; `get` and `list`
 * read the user's runs; `resume` picks up runs a restart cut off (main.ts calls it at start,
 * and a poll of a running run whose lease has lapsed resumes it too).
 */
import { genreNames } from "../catalog/genres.ts";
import { upsertLight } from "../catalog/movies_store.ts";
import type { CatalogService, SearchRow } from "../catalog/types.ts";
import type { AppDeps } from "../deps.ts";
import { tryLock } from "../kv_lock.ts";
import { describeError } from "../log.ts";
import { Problem } from "../problem.ts";
import { parseHistoryFile, type ZipLimits } from "./mod.ts";
import type { SearchFn } from "./match.ts";
import { executeImport, type RunEnd } from "./run.ts";
import {
  emptyCounts,
  getRun,
  type HistoryImport,
  insertRun,
  listRuns,
  loadRunning,
  runningIds,
  type StoredRun,
} from "./runs.ts";
import { groupRows } from "./units.ts";
import { prepareLists } from "../user_lists/import.ts";

/** What the import routes call. */
export interface HistoryImportService {
  /** Reads `file` and starts its run; 400 for a file it cannot read, 409 while one runs. */
  start(userId: string, file: Uint8Array): Promise<{ importId: string; status: "running" }>;
  /** The user's run `id`; 404 `not_found` for anyone else's or none. */
  get(userId: string, id: string): Promise<HistoryImport>;
  /** The user's runs, newest first. */
  list(userId: string): Promise<HistoryImport[]>;
  /** Resumes every running run no instance is carrying on; returns their ids. */
  resume(): Promise<string[]>;
  /** Resolves once every run this service carries on (and its detail prefetch) has ended. */
  idle(): Promise<void>;
}

/** Tuning of the service (tests and the benchmark change it). */
export interface HistoryImportOptions {
  catalog: CatalogService;
  /** Searches in flight (default 8: at 50 ms a call, 2 already fill 40/s). */
  concurrency?: number;
  batchSize?: number;
  lockTtlMs?: number;
  zip?: ZipLimits;
}

/** How long a run's lease lasts without renewal. */
export const RUN_LEASE_MS = 30_000;
const SEARCH_ATTEMPTS = 3;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const leaseKey = (id: string): Deno.KvKey => ["history_import", id];

function notFound(): Problem {
  return new Problem(404, "not_found", "No such import.");
}

/** Builds the history import service. */
export function createHistoryImportService(
  deps: AppDeps,
  options: HistoryImportOptions,
): HistoryImportService {
  const { store, kv, clock, log } = deps;
  const { catalog } = options;
  const ttlMs = options.lockTtlMs ?? RUN_LEASE_MS;
  // The runs going on in the background here, so a caller can wait for them to end.
  const inflight = new Set<Promise<unknown>>();

  // A transient search failure (the window busy, TMDB down for a moment) is tried again.
  const search: SearchFn = async (title, year) => {
    for (let attempt = 1;; attempt++) {
      try {
        return (await catalog.search(title, { year, wait: true })).value.results;
      } catch (error) {
        const transient = error instanceof Problem && (error.status === 429 || error.status >= 500);
        if (!transient || attempt >= SEARCH_ATTEMPTS) throw error;
        await clock.sleep(1000 * attempt);
      }
    }
  };

  const remember = (rows: SearchRow[]) =>
    upsertLight(
      store,
      rows.map((r) => ({
        catalog_id: r.id,
        title: r.title,
        original_title: r.original_title,
        release_date: r.release_date || null,
        year: Number(r.release_date?.slice(0, 4)) || 0,
        poster_path: r.poster_path,
        genre_ids: r.genre_ids,
        genres: genreNames(r.genre_ids),
        overview: "",
        vote_average: r.vote_average,
        vote_count: 0,
        popularity: 0,
      })),
      { now: clock.now() },
    );

  // Movies named by id that the store has no row of get their details fetched afterwards.
  async function prefetchUnknown(run: StoredRun) {
    const ids = [...new Set(run.units.flatMap((u) => (u.tmdbId === undefined ? [] : [u.tmdbId])))];
    if (ids.length === 0) return;
    const rows = await store.query<{ id: number }>(
      `select c as id from unnest($1::integer[]) as c
       where not exists (select 1 from public.movies m where m.catalog_id = c)`,
      [ids],
    );
    if (rows.length > 0) await catalog.prefetch(rows.map((r) => Number(r.id)));
  }

  function carryOn(run: StoredRun, lease: { renew(): Promise<boolean>; release(): Promise<void> }) {
    const started = performance.now();
    const done = executeImport(run, {
      store,
      search,
      clock,
      log,
      remember,
      batchSize: options.batchSize ?? 50,
      concurrency: options.concurrency ?? 8,
      lookahead: 2,
      renew: () => lease.renew(),
      renewEveryMs: Math.max(1, Math.floor(ttlMs / 6)),
    }).then(async (end: RunEnd) => {
      if (end !== "abandoned") await lease.release().catch(() => {});
      log({
        level: end === "succeeded" ? "info" : "warn",
        msg: "history import ended",
        importId: run.id,
        end,
        ms: Math.round(performance.now() - started),
      });
      if (end === "succeeded") await prefetchUnknown(run);
    }).catch((error) =>
      log({ level: "error", msg: "history import bookkeeping failed", error: describeError(error) })
    );
    inflight.add(done);
    done.finally(() => inflight.delete(done));
  }

  async function resumeOne(id: string): Promise<boolean> {
    const lease = await tryLock(kv, leaseKey(id), { ttlMs, clock, held: deps.leases });
    if (!lease) return false;
    const run = await loadRunning(store, id);
    if (!run) {
      await lease.release();
      return false;
    }
    log({ level: "info", msg: "history import resumed", importId: id, cursor: run.cursor });
    carryOn(run, lease);
    return true;
  }

  return {
    async start(userId, file) {
      const [busy] = await store.query<{ busy: boolean }>(
        `select exists (select 1 from public.history_imports
           where user_id = $1 and status = 'running') as busy`,
        [userId],
      );
      const running = () =>
        new Problem(409, "import_running", "An import of yours is already running.");
      if (busy.busy) throw running();
      const parsed = parseHistoryFile(file, { zip: options.zip });
      // The file's own lists become the user's (docs/user_lists.md); past the limit, skipped.
      const listIds = await prepareLists(store, userId, parsed.lists ?? []);
      const rows = parsed.rows.filter((r) => {
        if (!r.list) return true;
        r.list.listId = listIds[r.list.index] ?? undefined;
        return r.list.listId !== undefined;
      });
      parsed.skipped += parsed.rows.length - rows.length;
      parsed.rows = rows;
      const run: StoredRun = {
        id: crypto.randomUUID(),
        userId,
        status: "running",
        format: parsed.format,
        startedAt: new Date(clock.now()).toISOString(),
        finishedAt: null,
        progress: 0,
        counts: { ...emptyCounts(parsed.rows.length + parsed.skipped), skipped: parsed.skipped },
        unmatched: [],
        units: groupRows(parsed.rows),
        cursor: 0,
      };
      const lease = await tryLock(kv, leaseKey(run.id), { ttlMs, clock, held: deps.leases });
      if (!lease) throw new Problem(503, "import_unavailable", "Try the import again.");
      if (!(await insertRun(store, run))) {
        await lease.release();
        throw running();
      }
      log({ level: "info", msg: "history import started", importId: run.id, format: run.format });
      carryOn(run, lease);
      return { importId: run.id, status: "running" };
    },

    async get(userId, id) {
      if (!UUID.test(id)) throw notFound();
      const run = await getRun(store, userId, id);
      if (!run) throw notFound();
      // Its instance is gone (the lease lapsed): this one carries it on.
      if (run.status === "running") await resumeOne(id);
      return run;
    },

    list: (userId) => listRuns(store, userId),

    async idle() {
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
    },

    async resume() {
      const resumed: string[] = [];
      for (const id of await runningIds(store)) if (await resumeOne(id)) resumed.push(id);
      return resumed;
    },
  };
}

/**
 * main.ts's start-up step: runs a restart cut off carry on here, now and once more after
 * the lease of the process this one replaces has lapsed. Never throws (failures are logged).
 */
export function resumeHistoryImports(
  service: HistoryImportService,
  deps: Pick<AppDeps, "log">,
  options: { lockTtlMs?: number } = {},
): void {
  const resume = () =>
    service.resume().catch((error) =>
      deps.log({
        level: "error",
        msg: "resuming history imports failed",
        error: describeError(error),
      })
    );
  resume();
  setTimeout(resume, (options.lockTtlMs ?? RUN_LEASE_MS) + 1_000);
}
