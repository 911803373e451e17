/**
 * The catalog import as a service: `start` takes the import lock (one run at a time across
 * every instance), records the run and carries it on in the background; `runs` lists the
 * recent ones. `failInterruptedImports` is main.ts's startup step for runs cut off by a restart.
 */
import type { MovieSource } from "../types.ts";
import type { AppDeps } from "../../deps.ts";
import { describeError } from "../../log.ts";
import { Problem } from "../../problem.ts";
import { DEFAULT_PAGES } from "./body.ts";
import { IMPORT_LOCK_TTL_MS, importLockHeld, takeImportLock } from "./lock.ts";
import { executeRun, type RunOutcome } from "./execute.ts";
import {
  type CatalogImportRun,
  failRunningRuns,
  type ImportTrigger,
  insertRun,
  INTERRUPTED,
  listRuns,
} from "./runs.ts";

/** A run just started: its id, and a promise of its outcome (it never rejects). */
export interface StartedImport {
  importId: string;
  status: "running";
  done: Promise<RunOutcome>;
}

/** What the admin route and the cron call. */
export interface CatalogImportService {
  /** Starts a run in the background; 409 `import_running` while one runs anywhere. */
  start(options?: { pages?: number; trigger?: ImportTrigger }): Promise<StartedImport>;
  /** The last 20 runs, newest first. */
  runs(): Promise<CatalogImportRun[]>;
}

/** What the import needs beyond AppDeps, and its tuning (tests and the benchmark change it). */
export interface CatalogImportOptions {
  catalog: MovieSource;
  /** External calls in flight (default 8: with 50 ms per call, 3 already fill 40/s). */
  concurrency?: number;
  /** Lease lifetime without renewal (default 30 s). */
  lockTtlMs?: number;
}

/** Calls in flight by default. */
export const DEFAULT_CONCURRENCY = 8;

/** Builds the import service. */
export function createCatalogImportService(
  deps: AppDeps,
  options: CatalogImportOptions,
): CatalogImportService {
  const { store, kv, clock, log } = deps;
  const lockTtlMs = options.lockTtlMs ?? IMPORT_LOCK_TTL_MS;

  async function start(
    { pages = DEFAULT_PAGES, trigger = "manual" }: { pages?: number; trigger?: ImportTrigger } = {},
  ): Promise<StartedImport> {
    const importId = crypto.randomUUID();
    const lock = await takeImportLock(kv, importId, { clock, ttlMs: lockTtlMs, held: deps.leases });
    if (!lock) throw new Problem(409, "import_running", "A catalog import is already running.");
    try {
      // Holding the lock proves no other run is alive: a row still `running` lost its process.
      const stale = await failRunningRuns(store, { now: clock.now(), keep: importId });
      if (stale.length > 0) {
        log({
          level: "warn",
          msg: "catalog imports marked failed",
          importIds: stale,
          reason: INTERRUPTED,
        });
      }
      await insertRun(store, { id: importId, trigger, pages, startedAt: clock.now() });
    } catch (error) {
      await lock.release().catch(() => {});
      throw error;
    }
    log({ level: "info", msg: "catalog import started", importId, trigger, pages });
    const started = performance.now();
    const done = executeRun({ id: importId, pages, lock }, {
      catalog: options.catalog,
      store,
      clock,
      log,
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
      progressEveryMs: 1_000,
      progressEveryCalls: 20,
      renewEveryMs: Math.max(1, Math.floor(lockTtlMs / 6)),
    }).then((outcome) => {
      log({
        level: outcome.status === "succeeded" ? "info" : "error",
        msg: "catalog import finished",
        importId,
        trigger,
        ms: Math.round(performance.now() - started),
        ...outcome,
      });
      return outcome;
    });
    return { importId, status: "running", done };
  }

  return { start, runs: () => listRuns(store, 20) };
}

/**
 * main.ts's startup step: runs still `running` while no instance holds the import lock were
 * cut off by a restart, so they are marked failed. Returns their ids.
 */
export async function failInterruptedImports(deps: AppDeps): Promise<string[]> {
  const now = deps.clock.now();
  if (await importLockHeld(deps.kv, deps.clock)) return [];
  // A run another instance starts right after the look at the lock is younger than `now`.
  const ids = await failRunningRuns(deps.store, { now, startedBefore: now + 1 });
  if (ids.length > 0) {
    deps.log({
      level: "warn",
      msg: "catalog imports marked failed",
      importIds: ids,
      reason: INTERRUPTED,
    });
  }
  return ids;
}

/** One cron tick: starts a `cron` run and waits for it; a run already going is logged and skipped. */
export async function scheduledImport(service: CatalogImportService, deps: Pick<AppDeps, "log">) {
  try {
    const { importId, done } = await service.start({ trigger: "cron" });
    const outcome = await done;
    return { importId, status: outcome.status };
  } catch (error) {
    if (error instanceof Problem && error.code === "import_running") {
      deps.log({ level: "info", msg: "catalog import cron skipped: a run is in progress" });
      return null;
    }
    deps.log({ level: "error", msg: "catalog import cron failed", error: describeError(error) });
    return null;
  }
}
