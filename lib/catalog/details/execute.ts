/**
 * One run of the details job: the planned films (./plan.ts) fetched through the job's quarter
 * of the window, a few in flight, each stored with the current append set. A failing film is
 * counted, skipped and remembered (./failures.ts: runs leave it for a growing while); a spent
 * budget or a lost lease ends the run. Never throws: the outcome is recorded.
 */
import type { Catalog } from "../types.ts";
import type { Clock } from "@/lib/core/clock.ts";
import { taskPool } from "@/lib/core/async/pool.ts";
import type { JobLease } from "@/lib/platform/jobs/lease.ts";
import { describeError, type Logger } from "@/lib/core/log.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { DETAIL_APPENDS } from "../tmdb_client.ts";
import { clearFailure, isFilmFailure, recordFailure } from "./failures.ts";
import { planDetails } from "./plan.ts";
import type { BudgetedWindow } from "./quarter_window.ts";
import { type DetailsCounts, writeRun } from "./runs.ts";

/** How a run ended. */
export interface DetailsOutcome extends DetailsCounts {
  status: "succeeded" | "failed";
}

/** What a run works with. */
interface DetailsRunOptions {
  catalog: Catalog;
  window: BudgetedWindow;
  store: Store;
  clock: Clock;
  log: Logger;
  /** Films fetched at once; the quarter share keeps them within the job's place. */
  concurrency: number;
}

function errorText(error: unknown): string {
  if (!(error instanceof Problem)) return "internal_error";
  const text = `${error.code}: ${error.message}`;
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

/** Runs the job `run` holding `lock` and records the outcome. */
export async function executeDetailsRun(
  run: { id: string; budget: number; lock: JobLease },
  options: DetailsRunOptions,
): Promise<DetailsOutcome> {
  const { store, clock, log, window } = options;
  const counts: DetailsCounts = {
    moviesPlanned: 0,
    moviesRefreshed: 0,
    calls: 0,
    errors: 0,
    lastError: null,
  };
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

  async function fetchOne({ id, failedBefore }: { id: number; failedBefore: boolean }) {
    try {
      await options.catalog.refreshMovie(id);
    } catch (error) {
      if (error instanceof Problem && error.code === "budget_spent") {
        pool.stop();
        return;
      }
      counts.errors++;
      counts.lastError = `movie ${id}: ${errorText(error)}`;
      if (isFilmFailure(error)) {
        // A store error here is the run's (the pool's onError fails it), as any other statement's.
        await recordFailure(store, {
          catalogId: id,
          at: clock.now(),
          notFound: error instanceof Problem && error.status === 404,
          error: errorText(error),
        });
      }
      if (!(error instanceof Problem)) {
        log({
          level: "warn",
          msg: "details fetch failed",
          catalogId: id,
          error: describeError(error),
        });
      }
      return;
    }
    counts.moviesRefreshed++;
    if (failedBefore) await clearFailure(store, id);
  }

  let status: "succeeded" | "failed" = "succeeded";
  try {
    const queue = await planDetails(store, {
      appends: DETAIL_APPENDS,
      budget: run.budget,
      now: clock.now(),
    });
    counts.moviesPlanned = queue.length;
    progress();
    let done = 0;
    for (const film of queue) {
      pool.add(async () => {
        await fetchOne(film);
        // The lease's heartbeat (lib/platform/jobs/lease.ts): a renewal finding another owner ends the run.
        if (!(await run.lock.heartbeat())) pool.stop();
        if (++done % 20 === 0) progress();
      });
    }
    await pool.drained();
    if (fatal) throw fatal.error;
    if (run.lock.lost) {
      status = "failed";
      counts.lastError = "stopped: another instance took the details lock";
    }
  } catch (error) {
    status = "failed";
    counts.lastError = errorText(error);
    log({ level: "error", msg: "details run failed", runId: run.id, error: describeError(error) });
  }
  counts.calls = window.calls;
  await writing;
  await writeRun(store, { ...counts, id: run.id, status, at: clock.now() }).catch((error) =>
    log({ level: "error", msg: "details run not recorded", error: describeError(error) })
  );
  return { ...counts, status };
}
