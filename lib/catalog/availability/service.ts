/**
 * The availability job as a service (docs/availability.md), one of the background jobs
 * (lib/platform/jobs/job.ts): `start` takes the job's lease (one run at a time across every instance),
 * records the run and carries it on in the background through its own catalog over the paced
 * share of the shared window; `runs` lists the recent ones. `failInterruptedAvailabilityRuns` is its restart step; `scheduledAvailability` a
 * cron tick.
 */
import { z } from "zod";
import { createCatalogService } from "../service.ts";
import { createExternalWindow, type ExternalWindow } from "../external_window.ts";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { cronTick } from "@/lib/platform/jobs/cron.ts";
import { failInterruptedRuns } from "@/lib/platform/jobs/interrupted.ts";
import type { Job } from "@/lib/platform/jobs/job.ts";
import { startJobRun } from "@/lib/platform/jobs/start.ts";
import { smtpMailer } from "@/lib/platform/mail/mod.ts";
import { sendDigests } from "../notifications/mod.ts";
import {
  AVAILABILITY_LOCK_KEY,
  AVAILABILITY_LOCK_TTL_MS,
  type AvailabilityParams,
  availabilityRecords,
} from "./job.ts";
import { pacedWindow } from "./paced_window.ts";
import { type AvailabilityOutcome, executeAvailabilityRun } from "./execute.ts";
import { type AvailabilityRun, listRuns, type RunTrigger } from "./runs.ts";

/**
 * The body of POST /api/admin/availability-runs: empty, `{}`, or `{"force":true}` to refresh the
 * movies fetched in the last 20 hours too.
 */
export const availabilityStartSchema = z.strictObject({
  force: z.boolean().optional().meta({
    description: "Also refresh the movies whose providers were fetched in the last 20 hours " +
      "(a run otherwise skips them).",
  }),
});

/** A run just started, and its outcome to come (never rejects). */
interface StartedAvailabilityRun {
  runId: string;
  status: "running";
  done: Promise<AvailabilityOutcome>;
}

/** What the admin route and the cron call. */
export interface AvailabilityService {
  /**
   * Starts a run; 409 `availability_running` while one runs anywhere. `force` refreshes the
   * movies fetched in the last 20 hours too (the operator's "run now" after setting things up).
   */
  start(options?: { trigger?: RunTrigger; force?: boolean }): Promise<StartedAvailabilityRun>;
  /** The last 20 runs, newest first. */
  runs(): Promise<AvailabilityRun[]>;
}

/** Tuning (tests change it). */
interface AvailabilityOptions {
  /** The shared window (default: the service's, in `deps.kv`). */
  window?: ExternalWindow;
  /** Movies refreshed at once (default 4). */
  concurrency?: number;
  lockTtlMs?: number;
  /** The digest mail after the refreshes; returns the mails sent. */
  afterRefresh?: (runStartedAt: number) => Promise<number>;
}

/** Builds the job's service. */
export function createAvailabilityService(
  deps: AppDeps,
  options: AvailabilityOptions = {},
): AvailabilityService {
  const { store, kv, clock, log, config } = deps;
  const lockTtlMs = options.lockTtlMs ?? AVAILABILITY_LOCK_TTL_MS;
  const shared = options.window ?? createExternalWindow(kv, { clock });
  const mailer = config.smtp ? smtpMailer(config.smtp, { from: config.mailFrom }) : undefined;
  const afterRefresh = options.afterRefresh ??
    ((since: number) => sendDigests(deps, { mailer, since }));

  const job: Job<AvailabilityParams, AvailabilityOutcome> = {
    ...availabilityRecords,
    lease: { key: AVAILABILITY_LOCK_KEY, ttlMs: lockTtlMs },
    execute: (run, lock) => {
      // A catalog of its own over the paced window; no detail cache, since it only refreshes.
      const window = pacedWindow(shared, { clock, budget: run.budget });
      const catalog = createCatalogService(deps, { window, detailCacheSize: 0 });
      return executeAvailabilityRun({ ...run, lock }, {
        catalog,
        window,
        store,
        clock,
        log,
        concurrency: options.concurrency ?? 4,
        afterRefresh,
      });
    },
  };

  async function start(
    { trigger = "manual", force = false }: { trigger?: RunTrigger; force?: boolean } = {},
  ) {
    const budget = config.availabilityBudget;
    const { runId, done } = await startJobRun(deps, job, { trigger, params: { budget, force } });
    return { runId, status: "running" as const, done };
  }

  return { start, runs: () => listRuns(store, 20) };
}

/** The restart step (lib/platform/jobs/restart.ts): runs still `running` while nobody holds the lease were cut off. */
export function failInterruptedAvailabilityRuns(deps: AppDeps): Promise<string[]> {
  return failInterruptedRuns(deps, availabilityRecords);
}

/** One cron tick: a `cron` run, awaited; a run already going is logged and skipped. */
export function scheduledAvailability(
  service: AvailabilityService,
  deps: Pick<AppDeps, "log">,
): Promise<AvailabilityOutcome | null> {
  return cronTick(deps, availabilityRecords, () => service.start({ trigger: "cron" }));
}
