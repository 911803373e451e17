/**
 * The availability job as a service (docs/availability.md): `start` takes the job's lease (one
 * run at a time across every instance), records the run and carries it on in the background
 * through its own catalog over the paced share of the shared window; `runs` lists the recent
 * ones. `failInterruptedAvailabilityRuns` is main.ts's startup step; `scheduledAvailability` a
 * cron tick.
 */
import { createCatalogService } from "../catalog/service.ts";
import { createExternalWindow, type ExternalWindow } from "../catalog/external_window.ts";
import type { AppDeps } from "../deps.ts";
import { isLeaseHeld, tryLock } from "../kv_lock.ts";
import { describeError } from "../log.ts";
import { smtpMailer } from "../mail/mod.ts";
import { sendDigests } from "../notifications/mod.ts";
import { Problem } from "../problem.ts";
import { pacedWindow } from "./paced_window.ts";
import { type AvailabilityOutcome, executeAvailabilityRun } from "./run.ts";
import {
  type AvailabilityRun,
  failRunningRuns,
  insertRun,
  INTERRUPTED,
  listRuns,
  type RunTrigger,
} from "./runs.ts";

/** The KV key of the job's lease. */
export const AVAILABILITY_LOCK_KEY: Deno.KvKey = ["availability_lock"];
/** How long the lease lasts without a renewal. */
export const AVAILABILITY_LOCK_TTL_MS = 30_000;

/** A run just started, and its outcome to come (never rejects). */
export interface StartedAvailabilityRun {
  runId: string;
  status: "running";
  done: Promise<AvailabilityOutcome>;
}

/** What the admin route and the cron call. */
export interface AvailabilityService {
  /** Starts a run; 409 `availability_running` while one runs anywhere. */
  start(options?: { trigger?: RunTrigger }): Promise<StartedAvailabilityRun>;
  /** The last 20 runs, newest first. */
  runs(): Promise<AvailabilityRun[]>;
}

/** Tuning (tests change it). */
export interface AvailabilityOptions {
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

  async function start({ trigger = "manual" }: { trigger?: RunTrigger } = {}) {
    const runId = crypto.randomUUID();
    const lock = await tryLock(kv, AVAILABILITY_LOCK_KEY, {
      ttlMs: lockTtlMs,
      clock,
      owner: runId,
      held: deps.leases,
    });
    if (!lock) {
      throw new Problem(409, "availability_running", "An availability run is already running.");
    }
    const budget = config.availabilityBudget;
    const startedAt = clock.now();
    try {
      await failRunningRuns(store, { now: startedAt, keep: runId });
      await insertRun(store, { id: runId, trigger, budget, startedAt });
    } catch (error) {
      await lock.release().catch(() => {});
      throw error;
    }
    log({ level: "info", msg: "availability run started", runId, trigger, budget });
    // A catalog of its own over the paced window; no detail cache, since it only refreshes.
    const window = pacedWindow(shared, { clock, budget });
    const catalog = createCatalogService(deps, { window, detailCacheSize: 0 });
    const done = executeAvailabilityRun({ id: runId, budget, startedAt, lock }, {
      catalog,
      window,
      store,
      clock,
      log,
      concurrency: options.concurrency ?? 4,
      renewEveryMs: Math.max(1, Math.floor(lockTtlMs / 6)),
      afterRefresh,
    }).then((outcome) => {
      log({
        level: outcome.status === "succeeded" ? "info" : "error",
        msg: "availability run finished",
        runId,
        ...outcome,
      });
      return outcome;
    });
    return { runId, status: "running" as const, done };
  }

  return { start, runs: () => listRuns(store, 20) };
}

/** main.ts's startup step: runs still `running` while nobody holds the lease were cut off. */
export async function failInterruptedAvailabilityRuns(deps: AppDeps): Promise<string[]> {
  const now = deps.clock.now();
  if (await isLeaseHeld(deps.kv, AVAILABILITY_LOCK_KEY, { clock: deps.clock })) return [];
  const ids = await failRunningRuns(deps.store, { now, startedBefore: now + 1 });
  if (ids.length > 0) {
    deps.log({
      level: "warn",
      msg: "availability runs marked failed",
      runIds: ids,
      reason: INTERRUPTED,
    });
  }
  return ids;
}

/** One cron tick: a `cron` run, awaited; a run already going is logged and skipped. */
export async function scheduledAvailability(
  service: AvailabilityService,
  deps: Pick<AppDeps, "log">,
): Promise<AvailabilityOutcome | null> {
  try {
    const { done } = await service.start({ trigger: "cron" });
    return await done;
  } catch (error) {
    if (error instanceof Problem && error.code === "availability_running") {
      deps.log({ level: "info", msg: "availability cron skipped: a run is in progress" });
      return null;
    }
    deps.log({ level: "error", msg: "availability cron failed", error: describeError(error) });
    return null;
  }
}
