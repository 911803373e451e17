/**
 * A concurrency limit: at most `limit` tasks of one gate run at once, the others waiting in
 * the order they came. A finishing task hands its place straight to the next waiter, so a
 * caller arriving in between cannot take it and push the count past the limit.
 */

/** Runs `task` once a place is free; resolves or rejects as the task does. */
type Gate = <T>(task: () => Promise<T>) => Promise<T>;

/** Makes a gate letting at most `limit` (at least 1) tasks run at once. */
export function limiter(limit: number): Gate {
  const places = Math.max(1, limit);
  let active = 0;
  const waiting: (() => void)[] = [];
  const leave = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active < places) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      leave();
    }
  };
}
