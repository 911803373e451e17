/**
 * One import run: the popular pages through the catalog (which stores their movies as light
 * rows), then full details of the movies whose details are missing or stale, everything
 * through the shared external window with a bounded number of calls in flight. Progress is
 * written to the run's row as it goes; a movie that fails is counted, logged and skipped.
 */
import type { CatalogService } from "../catalog/types.ts";
import type { Clock } from "../clock.ts";
import { describeError, type Logger } from "../log.ts";
import { Problem } from "../problem.ts";
import type { Sql } from "../store/mod.ts";
import type { ImportLock } from "./lock.ts";
import { taskPool } from "./pool.ts";
import { finishRun, type ImportCounts, writeProgress } from "./runs.ts";

/** How a run ended. */
export interface RunOutcome extends ImportCounts {
  status: "succeeded" | "failed";
}

/** What a run works with, and its tuning. */
export interface RunOptions {
  catalog: CatalogService;
  store: Sql;
  clock: Clock;
  log: Logger;
  /** External calls in flight; the window makes the extra ones wait, so a few more than needed is harmless. */
  concurrency: number;
  /** Progress is written at least this often (clock time)... */
  progressEveryMs: number;
  /** ...or after this many finished calls, whichever comes first. */
  progressEveryCalls: number;
  /** The lease is renewed when this much clock time has passed since the last renewal. */
  renewEveryMs: number;
}

/**
 * A failure as last_error shows it (the admin route returns it): a problem's code and message,
 * at most 500 characters; anything else (a store error's text may quote SQL) only as
 * `internal_error`, its text going to the log.
 */
function message(error: unknown): string {
  if (!(error instanceof Problem)) return "internal_error";
  const text = `${error.code}: ${error.message}`;
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

/** Runs the import `run` holding `lock`; never throws: the outcome is written to the run's row. */
export async function executeRun(
  run: { id: string; pages: number; lock: ImportLock },
  options: RunOptions,
): Promise<RunOutcome> {
  const { catalog, store, clock, log } = options;
  const counts: ImportCounts = {
    moviesSeen: 0,
    moviesUpserted: 0,
    detailsFetched: 0,
    errors: 0,
    lastError: null,
  };
  const seen = new Set<number>();
  let pagesRead = 0;
  let lastPageError: string | null = null;
  let lostLock = false;

  const fail = (text: string, extra: Record<string, unknown>, error?: unknown) => {
    counts.errors++;
    counts.lastError = text;
    log({
      level: "warn",
      msg: "catalog import step failed",
      importId: run.id,
      ...extra,
      error: error === undefined ? text : describeError(error),
    });
  };

  // Progress writes and lease renewals run one after another, off the tasks' path, so a
  // slow store write never holds a slot of the external window.
  let chain: Promise<void> = Promise.resolve();
  const later = (step: () => Promise<void>) => {
    chain = chain.then(step).catch((error) =>
      log({
        level: "error",
        msg: "catalog import bookkeeping failed",
        importId: run.id,
        error: describeError(error),
      })
    );
  };
  let lastWrite = clock.now();
  let callsSinceWrite = 0;
  let lastRenew = clock.now();

  const pool = taskPool(options.concurrency, {
    onError: (error) => fail(message(error), {}, error),
  });

  const afterCall = () => {
    callsSinceWrite++;
    const now = clock.now();
    if (
      callsSinceWrite >= options.progressEveryCalls || now - lastWrite >= options.progressEveryMs
    ) {
      callsSinceWrite = 0;
      lastWrite = now;
      later(() => writeProgress(store, run.id, { ...counts }));
    }
    if (now - lastRenew >= options.renewEveryMs) {
      lastRenew = now;
      later(async () => {
        if (await run.lock.renew()) return;
        // Another instance took the lease (ours ran out): stop before two runs overlap.
        lostLock = true;
        pool.stop();
      });
    }
  };

  const detail = async (id: number) => {
    try {
      const outcome = await catalog.prefetch([id]);
      counts.detailsFetched += outcome.fetched;
      for (const f of outcome.failed) fail(`movie ${f.id}: ${f.error}`, { catalogId: f.id });
    } catch (error) {
      fail(`movie ${id}: ${message(error)}`, { catalogId: id }, error);
    }
    afterCall();
  };

  const page = async (n: number) => {
    try {
      const { value, listedIds } = await catalog.popular(n, { fresh: true });
      pagesRead++;
      // Every movie TMDB listed, including those the feed's display filter drops (no
      // poster, no date, no votes): each is stored and gets its details (contract section 6).
      const listed = listedIds ?? value.results.map((row) => row.id);
      counts.moviesSeen += listed.length;
      const fresh = listed.filter((id) => !seen.has(id));
      for (const id of fresh) seen.add(id);
      counts.moviesUpserted += fresh.length;
      const stale = fresh.length > 0 ? await catalog.staleIds(fresh) : [];
      for (const id of stale) pool.add(() => detail(id));
    } catch (error) {
      lastPageError = `page ${n}: ${message(error)}`;
      fail(lastPageError, { page: n }, error);
    }
    afterCall();
  };

  let outcome: RunOutcome;
  try {
    for (let n = 1; n <= run.pages; n++) pool.add(() => page(n));
    await pool.drained();
    await chain;
    let status: RunOutcome["status"] = "succeeded";
    if (lostLock) {
      status = "failed";
      counts.lastError = "stopped: another instance took the import lock";
    } else if (pagesRead === 0) {
      // Not one page could be read (no credentials, the database down): nothing was imported.
      status = "failed";
      counts.lastError = lastPageError;
    }
    outcome = { ...counts, status };
  } catch (error) {
    log({
      level: "error",
      msg: "catalog import failed",
      importId: run.id,
      error: describeError(error),
    });
    outcome = { ...counts, status: "failed", errors: counts.errors + 1, lastError: message(error) };
  }
  try {
    await finishRun(store, run.id, { ...outcome, finishedAt: clock.now() });
  } catch (error) {
    log({
      level: "error",
      msg: "catalog import could not record its end",
      importId: run.id,
      error: describeError(error),
    });
  }
  if (!lostLock) await run.lock.release().catch(() => {});
  return outcome;
}
