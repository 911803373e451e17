/**
 * Cooperative slicing of CPU-heavy import steps (inflating, CSV parsing, grouping): each step
 * calls `tick()` often, and after about `sliceMs` of work the slicer gives the event loop a
 * turn, so health checks and other users' requests are answered while an import is read.
 */

/** The longest stretch of import work between two turns of the event loop. */
const SLICE_MS = 8;

/** A budget of CPU time per slice; `tick()` yields once it is spent. */
export class Slicer {
  #since = performance.now();
  readonly #sliceMs: number;

  constructor(sliceMs: number = SLICE_MS) {
    this.#sliceMs = sliceMs;
  }

  /** Resolves at once while the slice lasts, else after a macrotask turn of the event loop. */
  tick(): Promise<void> | undefined {
    if (performance.now() - this.#since < this.#sliceMs) return undefined;
    return new Promise((resolve) =>
      setTimeout(() => {
        this.#since = performance.now();
        resolve();
      }, 0)
    );
  }
}
