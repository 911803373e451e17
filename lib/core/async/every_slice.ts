/**
 * Time slices for work that runs on the event loop's thread (docs/faults.md): a long run of
 * CPU work, or of promises that settle in microtasks, gives the event loop a timer turn now and
 * then, so timers, health checks and other people's requests are served between its pieces.
 */

/**
 * Returns a step to call between two pieces of work: undefined (go on at once) while less than
 * `sliceMs` passed since the last turn, else a promise that settles after a timer turn.
 */
export function everySlice(sliceMs: number): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < sliceMs) return undefined;
    return new Promise((resolve) =>
      setTimeout(() => {
        since = performance.now();
        resolve();
      }, 0)
    );
  };
}
