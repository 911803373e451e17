/**
 * One import run: the popular pages through the catalog (which stores their movies as light
 * rows), then full details of the movies whose details are missing or stale, everything
 * through the shared external window with a bounded number of calls in flight. Progress is
 * written to the run's row as it goes; a movie that fails is counted, logged and skipped.
 */
import type { MovieSource } from "../types.ts";
import type { Clock } from "@/lib/core/clock.ts";
import { describeError, type Logger } from "@/lib/core/log.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";
import type { JobLease } from "@/lib/platform/jobs/lease.ts";
import { type TaskPool, taskPool } from "@/lib/core/async/pool.ts";
import { RunProgress } from "./run_progress.ts";
import { finishRun, type ImportCounts } from "./runs.ts";

/** How a run ended. */
export interface RunOutcome extends ImportCounts {
  status: "succeeded" | "failed";
}

/** What a run works with, and its tuning. */
interface RunOptions {
  catalog: MovieSource;
  store: Sql;
  clock: Clock;
  log: Logger;
  /** External calls in flight; the window makes the extra ones wait, so a few more than needed is harmless. */
  concurrency: number;
  /** Progress is written at least this often (clock time)... */
  progressEveryMs: number;
  /** ...or after this many finished calls, whichever comes first. */
  progressEveryCalls: number;
}

/** The run as executeRun is given it. */
type RunRef = { id: string; pages: number; lock: JobLease };

/**
 * A failure as last_error shows it (the admin route returns it): a problem's code and message,
 * at most 500 characters; anything else (a store error's text may quote SQL) only as
 * `internal_error`, its text going to the log.
 */
function lastErrorText(error: unknown): string {
  if (!(error instanceof Problem)) return "internal_error";
  const text = `${error.code}: ${error.message}`;
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

/**
 * Runs the import `run` holding `lock` (lib/platform/jobs/start.ts hands it back afterwards); never
 * throws: the outcome is written to the run's row.
 */
export async function executeRun(run: RunRef, options: RunOptions): Promise<RunOutcome> {
  const importRun = new RunExecution(run, options);
  const outcome = await importRun.work();
  await importRun.record(outcome);
  return outcome;
}

// One run's state: its counts, its pool of calls and its bookkeeping.
class RunExecution {
  readonly counts: ImportCounts = {
    moviesSeen: 0,
    moviesUpserted: 0,
    detailsFetched: 0,
    errors: 0,
    lastError: null,
  };
  readonly #seen = new Set<number>();
  #pagesRead = 0;
  #lastPageError: string | null = null;
  lostLock = false;
  readonly #pool: TaskPool;
  readonly #progress: RunProgress;

  constructor(readonly run: RunRef, readonly options: RunOptions) {
    this.#pool = taskPool(options.concurrency, {
      onError: (error) => this.#fail(lastErrorText(error), {}, error),
    });
    this.#progress = new RunProgress(run, {
      ...options,
      onLostLock: () => {
        this.lostLock = true;
        this.#pool.stop();
      },
    });
  }

  /** Reads every page and fetches the details they call for; the outcome, never a throw. */
  async work(): Promise<RunOutcome> {
    try {
      for (let n = 1; n <= this.run.pages; n++) this.#pool.add(() => this.#page(n));
      await this.#pool.drained();
      await this.#progress.settled();
      return this.#outcome();
    } catch (error) {
      this.#logError("catalog import failed", error);
      const { counts } = this;
      return {
        ...counts,
        status: "failed",
        errors: counts.errors + 1,
        lastError: lastErrorText(error),
      };
    }
  }

  /** Writes the outcome to the run's row; a store failure is logged, not thrown. */
  async record(outcome: RunOutcome): Promise<void> {
    try {
      await finishRun(this.options.store, {
        ...outcome,
        id: this.run.id,
        finishedAt: this.options.clock.now(),
      });
    } catch (error) {
      this.#logError("catalog import could not record its end", error);
    }
  }

  #outcome(): RunOutcome {
    const counts = this.counts;
    if (this.lostLock) {
      counts.lastError = "stopped: another instance took the import lock";
      return { ...counts, status: "failed" };
    }
    // Not one page could be read (no credentials, the database down): nothing was imported.
    if (this.#pagesRead === 0) {
      counts.lastError = this.#lastPageError;
      return { ...counts, status: "failed" };
    }
    return { ...counts, status: "succeeded" };
  }

  async #page(n: number): Promise<void> {
    try {
      const { value, listedIds } = await this.options.catalog.popular(n, {
        skipCache: true,
        background: true,
      });
      this.#pagesRead++;
      // Every movie TMDB listed, including those the feed's display filter drops (no poster,
      // no date, no votes): each is stored and gets its details (docs/catalog_import.md).
      const listed = listedIds ?? value.results.map((row) => row.id);
      this.counts.moviesSeen += listed.length;
      const newIds = listed.filter((id) => !this.#seen.has(id));
      for (const id of newIds) this.#seen.add(id);
      this.counts.moviesUpserted += newIds.length;
      const stale = newIds.length > 0 ? await this.options.catalog.staleIds(newIds) : [];
      for (const id of stale) this.#pool.add(() => this.#detail(id));
    } catch (error) {
      this.#lastPageError = `page ${n}: ${lastErrorText(error)}`;
      this.#fail(this.#lastPageError, { page: n }, error);
    }
    this.#progress.afterCall(this.counts);
  }

  async #detail(id: number): Promise<void> {
    try {
      const outcome = await this.options.catalog.prefetch([id], { background: true });
      this.counts.detailsFetched += outcome.fetched;
      for (const f of outcome.failed) this.#fail(`movie ${f.id}: ${f.error}`, { catalogId: f.id });
    } catch (error) {
      this.#fail(`movie ${id}: ${lastErrorText(error)}`, { catalogId: id }, error);
    }
    this.#progress.afterCall(this.counts);
  }

  #fail(text: string, extra: Record<string, unknown>, error?: unknown): void {
    this.counts.errors++;
    this.counts.lastError = text;
    this.options.log({
      level: "warn",
      msg: "catalog import step failed",
      importId: this.run.id,
      ...extra,
      error: error === undefined ? text : describeError(error),
    });
  }

  #logError(msg: string, error: unknown): void {
    this.options.log({ level: "error", msg, importId: this.run.id, error: describeError(error) });
  }
}
