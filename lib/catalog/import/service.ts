/**
 * The catalog import as a service, one of the background jobs (lib/platform/jobs/job.ts): `start` takes
 * the import lock (one run at a time across every instance), records the run and carries it on
 * in the background; `runs` lists the recent ones. `failInterruptedImports` is its restart step.
 */
import type { MovieSource } from "../types.ts";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { cronTick } from "@/lib/platform/jobs/cron.ts";
import { failInterruptedRuns } from "@/lib/platform/jobs/interrupted.ts";
import type { Job } from "@/lib/platform/jobs/job.ts";
import { startJobRun } from "@/lib/platform/jobs/start.ts";
import { DEFAULT_PAGES } from "./body.ts";
import {
  catalogImportRecords,
  IMPORT_LOCK_KEY,
  IMPORT_LOCK_TTL_MS,
  type ImportParams,
} from "./job.ts";
import { executeRun, type RunOutcome } from "./execute.ts";
import { type CatalogImportRun, type ImportTrigger, listRuns } from "./runs.ts";

/** A run just started: its id, and a promise of its outcome (it never rejects). */
interface StartedImport {
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
interface CatalogImportOptions {
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
  const { store, clock, log } = deps;
  const job: Job<ImportParams, RunOutcome> = {
    ...catalogImportRecords,
    lease: { key: IMPORT_LOCK_KEY, ttlMs: options.lockTtlMs ?? IMPORT_LOCK_TTL_MS },
    execute: (run, lock) =>
      executeRun({ id: run.id, pages: run.pages, lock }, {
        catalog: options.catalog,
        store,
        clock,
        log,
        concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
        progressEveryMs: 1_000,
        progressEveryCalls: 20,
      }),
  };

  async function start(
    { pages = DEFAULT_PAGES, trigger = "manual" }: { pages?: number; trigger?: ImportTrigger } = {},
  ): Promise<StartedImport> {
    const { runId, done } = await startJobRun(deps, job, { trigger, params: { pages } });
    return { importId: runId, status: "running", done };
  }

  return { start, runs: () => listRuns(store, 20) };
}

/**
 * The restart step (lib/platform/jobs/restart.ts): runs still `running` while no instance holds the
 * import lock were cut off by a restart, so they are marked failed. Returns their ids.
 */
export function failInterruptedImports(deps: AppDeps): Promise<string[]> {
  return failInterruptedRuns(deps, catalogImportRecords);
}

/** One cron tick: starts a `cron` run and waits for it; a run already going is logged and skipped. */
export async function scheduledImport(service: CatalogImportService, deps: Pick<AppDeps, "log">) {
  let importId = "";
  const outcome = await cronTick(deps, catalogImportRecords, async () => {
    const started = await service.start({ trigger: "cron" });
    importId = started.importId;
    return started;
  });
  return outcome ? { importId, status: outcome.status } : null;
}
