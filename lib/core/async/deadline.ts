/**
 * A deadline on a promise: the one `Promise.race` against a timer that the store, the health
 * checks and the shutdown drain each wrote by hand before (docs/faults.md).
 */

/** The timer a deadline waits on: the wall clock by default, a hand-moved one in tests. */
export interface DeadlineTimer {
  /** Calls `fn` once after `ms`; returns what `clear` takes. */
  set(fn: () => void, ms: number): unknown;
  /** Cancels a timer `set` returned (harmless once it ran). */
  clear(handle: unknown): void;
}

/**
 * Wall-clock timers, on purpose: a deadline bounds waiting on something frozen, which an
 * injected test clock (whose sleep returns at once) would cut short.
 */
const wallTimer: DeadlineTimer = {
  set: (fn, ms) => setTimeout(fn, Math.max(0, ms)),
  clear: (handle) => clearTimeout(handle as number),
};

/**
 * `work`'s outcome, or `onLate()`'s once `ms` passed without it settling: what `onLate` returns
 * resolves the answer, what it throws rejects it. The abandoned `work` may still settle later;
 * nobody waits for it (its rejection is not left unhandled).
 */
export function withDeadline<T>(
  work: Promise<T>,
  ms: number,
  options: { onLate: () => T; timer?: DeadlineTimer },
): Promise<T> {
  const timer = options.timer ?? wallTimer;
  let handle: unknown;
  const late = new Promise<T>((resolve, reject) => {
    handle = timer.set(() => {
      try {
        resolve(options.onLate());
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
  work.catch(() => {});
  return Promise.race([work, late]).finally(() => timer.clear(handle));
}
