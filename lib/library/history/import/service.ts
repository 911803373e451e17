/**
 * The history import as a service (docs/history.md): `start` reads the file (in a worker where
 * configured, read_off_thread.ts), records the run and answers; its units are stored and the run
 * carried on in the background under a KV lease; `get` and `list` read the user's runs; `resume` picks up runs a
 * restart cut off (its restart step, listed in lib/app/services.ts; a poll of a running run whose
 * lease has lapsed resumes it too).
 */
import type { KvKey } from "@/lib/platform/kv/kv.ts";
import { missingIds } from "@/lib/catalog/movies_store.ts";
import { rememberSearchRows } from "@/lib/catalog/remember_search_rows.ts";
import { retryingSearch } from "@/lib/catalog/retrying_search.ts";
import type { SearchRow } from "@/lib/catalog/types.ts";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { type JobLease, takeJobLease } from "@/lib/platform/jobs/lease.ts";
import { describeError } from "@/lib/core/log.ts";
import { Problem } from "@/lib/core/problem.ts";
import { BackgroundTurns } from "@/lib/core/async/background_turns.ts";
import { backgroundStore } from "@/lib/platform/store/mod.ts";
import { parseHistoryFile } from "./parse.ts";
import type { HistoryImportOptions, HistoryImportService } from "./service_types.ts";
import { executeImport, type RunEnd } from "./execute.ts";
import { cancelRun, finishRun } from "./run_progress.ts";
import {
  emptyCounts,
  getRun,
  insertRun,
  listRuns,
  loadRunning,
  runningIds,
  type StoredRun,
  unitsComplete,
} from "./runs.ts";
import { Slicer } from "./slices.ts";
import { groupRows } from "./units.ts";
import { uploadGate } from "./upload_gate.ts";
import { type FreshUnits, freshUnits, namedIds, unitsInMemory } from "./unit_source.ts";
import { storeFresh } from "./store_fresh.ts";
import { collectAfterRead } from "./read_collect.ts";
import { UNMATCHED_PAGE, unmatchedPage } from "./unmatched.ts";
import { unmatchedCsv } from "./unmatched_csv.ts";
import { prepareLists } from "@/lib/library/lists/import.ts";

export type { HistoryImportService } from "./service_types.ts";

/**
 * How long an import's search keeps coming back while the shared window stays full: many
 * imports at once share its background half, and waiting their turn is not a failure of the
 * run (docs/history.md, "Runs"). Past this one search has had no place for ten minutes.
 */
export const IMPORT_PATIENCE_MS = 10 * 60_000;

/** How long a run's lease lasts without renewal. */
export const RUN_LEASE_MS = 30_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const leaseKey = (id: string): KvKey => ["history_import", id];

function notFound(): Problem {
  return new Problem(404, "not_found", "No such import.");
}

/** `value` unless it is null; else 404 `not_found`. */
function found<T>(value: T | null): T {
  if (value === null) throw notFound();
  return value;
}

/** Builds the history import service. */
export function createHistoryImportService(
  deps: AppDeps,
  options: HistoryImportOptions,
): HistoryImportService {
  const { store, kv, clock, log } = deps;
  const { catalog } = options;
  // A run's statements wait behind every request's on the embedded store (lib/platform/store/lanes.ts),
  // and every import's slices take turns in one scheduler (./slices.ts); a person's own calls
  // (the upload's checks, polls, cancel) stay in the interactive lane.
  const work = backgroundStore(store);
  const turns = options.turns ?? new BackgroundTurns();
  const ttlMs = options.lockTtlMs ?? RUN_LEASE_MS;
  const readFile = options.readFile ?? parseHistoryFile;
  // Uploads read at once, and waiting, per process (./upload_gate.ts): as many as read workers.
  const admit = options.uploads ?? uploadGate({ readers: deps.config.historyReadWorkers });
  // V8's full collection after a large read, where the server exposes it (--expose-gc).
  const afterRead = collectAfterRead(options.collect, options.heapUsed);
  // The runs going on in the background here, so a caller can wait for them to end.
  const inflight = new Set<Promise<unknown>>();

  // A full window is waited out, not failed (many imports share its background half).
  const search = retryingSearch(catalog, clock, { patienceMs: IMPORT_PATIENCE_MS });
  const remember = (rows: SearchRow[]) => rememberSearchRows(work, rows, { now: clock.now() });

  // Movies named by id that the store has no row of get their details fetched afterwards.
  async function prefetchUnknown(ids: number[]) {
    if (ids.length === 0) return;
    const unknown = await missingIds(work, ids);
    if (unknown.length > 0) await catalog.prefetch(unknown, { background: true });
  }

  const takeLease = (id: string) =>
    takeJobLease(kv, leaseKey(id), { ttlMs, clock, held: deps.leases });

  // A run carried on: a fresh one with its units still to store, a resumed one with them loaded.
  function carryOn(run: StoredRun, lease: JobLease, fresh?: FreshUnits) {
    const started = performance.now();
    const ids = fresh?.ids ?? namedIds(run.units);
    const stored = fresh
      ? storeFresh({ id: run.id, fresh }, { store: work, lease, turns, clock, log })
      : Promise.resolve(unitsInMemory(run.units));
    const done = stored.then((source): RunEnd | Promise<RunEnd> =>
      typeof source === "string" ? source : executeImport(run, {
        units: source,
        store: work,
        search,
        clock,
        log,
        remember,
        batchSize: options.batchSize ?? 50,
        concurrency: options.concurrency ?? 8,
        lookahead: 2,
        lease,
        turns,
      })
    ).then(async (end: RunEnd) => {
      // Abandoned: the run was cancelled or taken over; its lease runs out by itself.
      if (end !== "abandoned") await lease.release();
      log({
        level: end === "succeeded" ? "info" : "warn",
        msg: "history import ended",
        importId: run.id,
        end,
        ms: Math.round(performance.now() - started),
      });
      // Whatever it applied (a cancelled run keeps its films too) gets its details soon.
      options.askDetails?.();
      if (end === "succeeded") await prefetchUnknown(ids);
    }).catch((error) =>
      log({ level: "error", msg: "history import bookkeeping failed", error: describeError(error) })
    );
    inflight.add(done);
    done.finally(() => inflight.delete(done));
  }

  async function resumeOne(id: string): Promise<boolean> {
    const lease = await takeLease(id);
    if (!lease) return false;
    const run = await loadRunning(work, id);
    if (!run) {
      await lease.release();
      return false;
    }
    if (!unitsComplete(run)) {
      await finishRun(work, id, {
        status: "failed",
        finishedAt: clock.now(),
        error: "The import was interrupted before its films were stored; import the file again.",
      });
      await lease.release();
      log({ level: "warn", msg: "history import could not resume", importId: id });
      return false;
    }
    log({ level: "info", msg: "history import resumed", importId: id, cursor: run.cursor });
    carryOn(run, lease);
    return true;
  }

  const running = () =>
    new Problem(409, "import_running", "An import of yours is already running.");

  // Reads the file into rows and films, records the run and carries it on in the background.
  // `upload.bytes` is let go once read, as the rows are once grouped and the films once they are
  // the JSON of their chunks: each step's input leaves memory before the next step's output grows.
  async function readAndStart(
    userId: string,
    upload: { bytes: Uint8Array | null },
  ): Promise<{ importId: string; status: "running" }> {
    // Read in a worker (read_off_thread.ts), or here in slices that yield, so the event loop
    // keeps answering others meanwhile; the slicer paces the steps after the read too. Someone
    // waits on this answer: its slices go before the runs' (within the same share of the loop).
    const slicer = new Slicer(undefined, turns, { first: true });
    const collected = afterRead.start();
    const parsed = await readFile(upload.bytes!, {
      zip: options.zip,
      maxRows: options.maxRows,
      slicer,
    }).catch((error) => {
      // A file refused half-way (500,000 rows read, then one too many) leaves as much behind.
      upload.bytes = null;
      collected();
      throw error;
    });
    upload.bytes = null;
    // The file's own lists become the user's (docs/lists.md); past the limit, skipped.
    const listIds = await prepareLists(store, userId, parsed.lists ?? []);
    const rows = parsed.rows.filter((r) => {
      if (!r.list) return true;
      r.list.listId = listIds[r.list.index] ?? undefined;
      return r.list.listId !== undefined;
    });
    const skipped = parsed.skipped + parsed.rows.length - rows.length;
    const rowCount = rows.length;
    parsed.rows = [];
    const units = await groupRows(rows, () => slicer.tick());
    rows.length = 0;
    const fresh = await freshUnits(units, () => slicer.tick());
    units.length = 0;
    collected();
    const run: StoredRun = {
      id: crypto.randomUUID(),
      userId,
      status: "running",
      format: parsed.format,
      startedAt: new Date(clock.now()).toISOString(),
      finishedAt: null,
      progress: 0,
      counts: { ...emptyCounts(rowCount + skipped), skipped },
      films: { total: fresh.length, matched: 0, unmatched: 0 },
      unmatched: [],
      units: [],
      cursor: 0,
    };
    const lease = await takeLease(run.id);
    if (!lease) throw new Problem(503, "import_unavailable", "Try the import again.");
    if (!(await insertRun(store, run))) {
      await lease.release();
      throw running();
    }
    slicer.done();
    log({ level: "info", msg: "history import started", importId: run.id, format: run.format });
    carryOn(run, lease, fresh);
    return { importId: run.id, status: "running" };
  }

  return {
    async start(userId, file) {
      const [busy] = await store.query<{ busy: boolean }>(
        `select exists (select 1 from public.history_imports
           where user_id = $1 and status = 'running') as busy`,
        [userId],
      );
      if (busy.busy) throw running();
      // Admitted (or 503) before the body is read; its bytes in hand, it waits for a reading
      // place, so only so many files are read into rows and films at once (./upload_gate.ts).
      return await admit(async (turn) => {
        const upload = { bytes: typeof file === "function" ? await file() : file };
        await turn();
        return await readAndStart(userId, upload);
      });
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

    cancel: async (userId, id) =>
      found(UUID.test(id) ? await cancelRun(store, userId, id, clock.now()) : null),

    unmatched: async (userId, id, cursor) =>
      found(
        UUID.test(id)
          ? await unmatchedPage(store, { userId, id }, {
            after: Number(cursor ?? 0),
            limit: UNMATCHED_PAGE,
          })
          : null,
      ),

    unmatchedCsv: async (userId, id) =>
      found(UUID.test(id) ? await unmatchedCsv(store, { userId, id }, deps.config.siteUrl) : null),

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
