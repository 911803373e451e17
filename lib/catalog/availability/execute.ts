/**
 * One run of the availability job: the planned movies (lib/catalog/availability/plan.ts) refreshed
 * through the job's paced share of the window, a few in flight, each compared with what was
 * stored before it so the users it concerns are notified; then, with what is left of the budget,
 * the films whose release data is stale while a date is near; then the release alerts from the
 * stored dates (./release_alerts.ts). A failing movie is counted and skipped; a spent budget or a
 * lost lease ends the refreshes. Never throws: the outcome is recorded.
 */
import type { Catalog } from "../types.ts";
import { readStoredProviders } from "../providers.ts";
import type { Clock } from "@/lib/core/clock.ts";
import { taskPool } from "@/lib/core/async/pool.ts";
import type { JobLease } from "@/lib/platform/jobs/lease.ts";
import { describeError, type Logger } from "@/lib/core/log.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { notifyNewOffers } from "./new_offers.ts";
import type { PacedWindow } from "./paced_window.ts";
import { planReleaseRefetch, planRun } from "./plan.ts";
import { notifyReleases } from "./release_alerts.ts";
import { type AvailabilityCounts, writeRun } from "./runs.ts";

/** How a run ended. */
export interface AvailabilityOutcome extends AvailabilityCounts {
  status: "succeeded" | "failed";
}

/** What a run works with. */
interface AvailabilityRunOptions {
  catalog: Catalog;
  window: PacedWindow;
  store: Store;
  clock: Clock;
  log: Logger;
  /** Movies refreshed at once; the pacing keeps them within the job's share. */
  concurrency: number;
  /** After the refreshes: the digest mail (lib/catalog/notifications); returns the mails sent. */
  afterRefresh?: (runStartedAt: number) => Promise<number>;
}

function errorText(error: unknown): string {
  if (!(error instanceof Problem)) return "internal_error";
  const text = `${error.code}: ${error.message}`;
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

/**
 * Runs the job `run` holding `lock` and records the outcome (lib/platform/jobs/start.ts hands the lock
 * back afterwards).
 */
export async function executeAvailabilityRun(
  run: { id: string; budget: number; force?: boolean; startedAt: number; lock: JobLease },
  options: AvailabilityRunOptions,
): Promise<AvailabilityOutcome> {
  const { store, clock, log, window } = options;
  const counts: AvailabilityCounts = {
    moviesPlanned: 0,
    moviesRefreshed: 0,
    calls: 0,
    notifications: 0,
    mails: 0,
    errors: 0,
    lastError: null,
  };
  // The movies not started yet are dropped once the run must end (budget spent, lease lost, or
  // a failure outside a movie's own step, which fails the run).
  let fatal: { error: unknown } | undefined;
  const pool = taskPool(Math.max(1, options.concurrency), {
    onError: (error) => {
      fatal ??= { error };
      pool.stop();
    },
  });
  let writing: Promise<void> = Promise.resolve();
  const progress = () => {
    counts.calls = window.calls;
    const snapshot = { ...counts, id: run.id, at: clock.now() };
    writing = writing.then(() => writeRun(store, snapshot)).catch(() => {});
  };

  async function refreshOne(id: number) {
    const before = await readStoredProviders(store, id);
    try {
      await options.catalog.refreshMovie(id);
    } catch (error) {
      if (error instanceof Problem && error.code === "budget_spent") {
        pool.stop();
        return;
      }
      counts.errors++;
      counts.lastError = `movie ${id}: ${errorText(error)}`;
      if (!(error instanceof Problem)) {
        log({
          level: "warn",
          msg: "availability refresh failed",
          catalogId: id,
          error: describeError(error),
        });
      }
      return;
    }
    counts.moviesRefreshed++;
    const after = await readStoredProviders(store, id);
    // Without earlier data nothing can be told "new": the first fetch only sets the baseline.
    if (before && after) {
      // Awaited first: `+= await` would read the counter before other movies added to it.
      const stored = await notifyNewOffers(store, {
        catalogId: id,
        before: before.results,
        after: after.results,
        now: clock.now(),
      });
      counts.notifications += stored;
    }
  }

  // The lease's heartbeat (lib/platform/jobs/lease.ts): a renewal that finds another owner ends the run.
  async function heartbeat() {
    if (!(await run.lock.heartbeat())) pool.stop();
  }

  let status: "succeeded" | "failed" = "succeeded";
  try {
    const providers = await planRun(store, {
      now: run.startedAt,
      budget: run.budget,
      force: run.force,
    });
    // Release data goes stale too: what the budget leaves after the providers fetches it again.
    const releases = await planReleaseRefetch(store, {
      now: run.startedAt,
      budget: run.budget - providers.length,
      planned: providers,
    });
    const queue = [...providers, ...releases];
    counts.moviesPlanned = queue.length;
    progress();
    let done = 0;
    for (const id of queue) {
      pool.add(async () => {
        try {
          await refreshOne(id);
        } catch (error) {
          counts.errors++;
          counts.lastError = `movie ${id}: ${errorText(error)}`;
          log({
            level: "warn",
            msg: "availability step failed",
            catalogId: id,
            error: describeError(error),
          });
        }
        await heartbeat();
        if (++done % 20 === 0) progress();
      });
    }
    await pool.drained();
    if (fatal) throw fatal.error;
    if (run.lock.lost) {
      status = "failed";
      counts.lastError = "stopped: another instance took the availability lock";
    } else {
      // Every run alerts from the stored dates, refreshed now or not (a spent budget included).
      counts.notifications += await notifyReleases(store, { now: clock.now() });
      progress();
      if (options.afterRefresh) counts.mails = await options.afterRefresh(run.startedAt);
    }
  } catch (error) {
    status = "failed";
    counts.lastError = errorText(error);
    log({
      level: "error",
      msg: "availability run failed",
      runId: run.id,
      error: describeError(error),
    });
  }
  counts.calls = window.calls;
  await writing;
  await writeRun(store, { ...counts, id: run.id, status, at: clock.now() }).catch((error) =>
    log({ level: "error", msg: "availability run not recorded", error: describeError(error) })
  );
  return { ...counts, status };
}
