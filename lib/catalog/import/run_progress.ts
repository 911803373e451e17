/**
 * The bookkeeping of an import run: progress written to the run's row and the lease renewed,
 * one after another off the tasks' path, so a slow store write never holds a slot of the
 * external window.
 */
import type { Clock } from "@/lib/core/clock.ts";
import { describeError, type Logger } from "@/lib/core/log.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";
import type { JobLease } from "@/lib/platform/jobs/lease.ts";
import { type ImportCounts, writeProgress } from "./runs.ts";

/** When to write progress (see RunOptions); the lease says when it is due. */
interface ProgressOptions {
  store: Sql;
  clock: Clock;
  log: Logger;
  progressEveryMs: number;
  progressEveryCalls: number;
  /** Called once the lease turns out to be another instance's. */
  onLostLock: () => void;
}

/** Writes a run's progress and renews its lease as its calls finish. */
export class RunProgress {
  #chain: Promise<void> = Promise.resolve();
  #lastWrite: number;
  #callsSinceWrite = 0;

  constructor(
    readonly run: { id: string; lock: JobLease },
    readonly options: ProgressOptions,
  ) {
    this.#lastWrite = options.clock.now();
  }

  /** Counts a finished call; writes progress and renews the lease when they are due. */
  afterCall(counts: ImportCounts): void {
    this.#callsSinceWrite++;
    const now = this.options.clock.now();
    const { progressEveryCalls, progressEveryMs } = this.options;
    if (this.#callsSinceWrite >= progressEveryCalls || now - this.#lastWrite >= progressEveryMs) {
      this.#callsSinceWrite = 0;
      this.#lastWrite = now;
      this.#later(() => writeProgress(this.options.store, { ...counts, id: this.run.id }));
    }
    // The lease's heartbeat (lib/platform/jobs/lease.ts), queued behind the progress writes.
    if (this.run.lock.due()) this.#later(() => this.#renew());
  }

  /** Resolves when every queued write and renewal has run. */
  settled(): Promise<void> {
    return this.#chain;
  }

  async #renew(): Promise<void> {
    // Another instance took the lease (ours ran out): stop before two runs overlap.
    if (!(await this.run.lock.renew())) this.options.onLostLock();
  }

  #later(step: () => Promise<void>): void {
    this.#chain = this.#chain.then(step).catch((error) =>
      this.options.log({
        level: "error",
        msg: "catalog import bookkeeping failed",
        importId: this.run.id,
        error: describeError(error),
      })
    );
  }
}
