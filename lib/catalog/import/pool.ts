/**
 * A queue of async tasks run at most `limit` at a time, in the order they were added. Tasks
 * may add more tasks while they run (a popular page adds its movies' detail fetches), so the
 * shared external window is kept busy without a pause between the two steps of an import.
 */

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
  const queue: (() => Promise<void>)[] = [];
  let active = 0;
  let waiters: (() => void)[] = [];

  const settleIfIdle = () => {
    if (active > 0 || queue.length > 0) return;
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  };

  const pump = () => {
    while (active < limit && queue.length > 0) {
      const task = queue.shift()!;
      active++;
      Promise.resolve()
        .then(task)
        .catch((error) => options.onError?.(error))
        .finally(() => {
          active--;
          pump();
        });
    }
    settleIfIdle();
  };

  return {
    add(task) {
      queue.push(task);
      pump();
    },
    stop() {
      queue.length = 0;
      settleIfIdle();
    },
    drained() {
      if (active === 0 && queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}
