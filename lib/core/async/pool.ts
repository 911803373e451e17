/**
 * A queue of async tasks run at most `limit` at a time (lib/core/async/limiter.ts), in the order
 * they were added. Tasks may add more tasks while they run (a popular page adds its movies'
 * detail fetches), so a shared external window is kept busy without a pause between steps;
 * `stop` drops what has not started, so a job that must end (its lease lost, its budget spent)
 * ends after the calls already in flight.
 */
import { limiter } from "./limiter.ts";

/** A bounded task queue. */
export interface TaskPool {
  /** Queues a task; its rejection is handed to `onError`, never thrown. */
  add(task: () => Promise<void>): void;
  /** Drops the tasks not started yet; running ones finish. */
  stop(): void;
  /** Resolves when nothing is running and nothing is queued. */
  drained(): Promise<void>;
}

/** Makes a pool running at most `limit` tasks at once. */
export function taskPool(
  limit: number,
  options: { onError?: (error: unknown) => void } = {},
): TaskPool {
  const gate = limiter(limit);
  const inflight = new Set<Promise<void>>();
  // A task added before the latest `stop` is skipped when its turn comes.
  let stops = 0;

  return {
    add(task) {
      const addedAt = stops;
      const run = () => addedAt === stops ? task() : Promise.resolve();
      const done: Promise<void> = Promise.resolve()
        .then(() => gate(run))
        .catch((error) => options.onError?.(error))
        .finally(() => inflight.delete(done));
      inflight.add(done);
    },
    stop() {
      stops++;
    },
    async drained() {
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
    },
  };
}
