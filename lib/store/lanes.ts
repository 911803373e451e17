/**
 * The embedded store's queue (docs/faults.md, "Background work on the embedded store"): PGlite
 * runs one statement at a time on the event loop's thread, so every call waits its turn here.
 * A person's request (the interactive lane) goes before background work (history imports, the
 * background lane), so health and a reader wait at most for the one statement running, never
 * behind an import's queue. After `backgroundEvery` interactive calls in a row while background
 * work waits, one background call runs, so a busy instance slows an import but never starves it
 * past the store's deadline.
 *
 * A call that ends starts the next in the same turn of the event loop (a promise's reaction), so
 * a queue that never empties (an import's statements, one after another) would hold the loop: no
 * request is even read meanwhile, health included. Once the loop has had no turn for
 * `yieldAfterMs`, the next call therefore waits for one (`breathe`), between calls and between
 * the statements of a background transaction.
 */

/** Which lane a store call waits in. */
export type Lane = "interactive" | "background";

/** Interactive calls run in a row, while background work waits, before one background call. */
const BACKGROUND_EVERY = 8;
/** The longest the store's calls may hold the event loop, back to back, before it gets a turn. */
const YIELD_AFTER_MS = 8;

const turnOfTheLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

type Task = () => Promise<void>;

/** A two-lane queue that runs one task at a time, interactive first. */
export class LaneQueue {
  readonly #interactive: Task[] = [];
  readonly #background: Task[] = [];
  readonly #backgroundEvery: number;
  readonly #yieldAfterMs: number;
  readonly #now: () => number;
  #busy = false;
  #streak = 0;
  // When the event loop was last seen to take a turn, and whether a timer is out to see it.
  #turnAt: number;
  #watching = false;

  constructor(
    options: { backgroundEvery?: number; yieldAfterMs?: number; now?: () => number } = {},
  ) {
    this.#backgroundEvery = options.backgroundEvery ?? BACKGROUND_EVERY;
    this.#yieldAfterMs = options.yieldAfterMs ?? YIELD_AFTER_MS;
    this.#now = options.now ?? (() => performance.now());
    this.#turnAt = this.#now();
  }

  /**
   * Resolves after a turn of the event loop when the store's calls have held it for
   * `yieldAfterMs` since its last one; undefined (go on at once) otherwise.
   */
  breathe(): Promise<void> | undefined {
    if (this.#now() - this.#turnAt < this.#yieldAfterMs) {
      this.#watch();
      return undefined;
    }
    return turnOfTheLoop().then(() => {
      this.#turnAt = this.#now();
    });
  }

  // A timer that fires only once the loop takes a turn: while it is pending, the calls since
  // `#turnAt` have run back to back.
  #watch(): void {
    if (this.#watching) return;
    this.#watching = true;
    setTimeout(() => {
      this.#watching = false;
      this.#turnAt = this.#now();
    }, 0);
  }

  /** Calls waiting in each lane (not counting the one running). */
  get waiting(): { interactive: number; background: number } {
    return { interactive: this.#interactive.length, background: this.#background.length };
  }

  /** Runs `work` when its turn comes in `lane`; settles as `work` does. */
  run<T>(lane: Lane, work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const task: Task = async () => {
        try {
          resolve(await work());
        } catch (error) {
          reject(error);
        }
      };
      (lane === "interactive" ? this.#interactive : this.#background).push(task);
      this.#next();
    });
  }

  #pick(): Task | undefined {
    const backgroundDue = this.#background.length > 0 &&
      (this.#interactive.length === 0 || this.#streak >= this.#backgroundEvery);
    if (backgroundDue) {
      this.#streak = 0;
      return this.#background.shift();
    }
    if (this.#background.length > 0) this.#streak++;
    return this.#interactive.shift();
  }

  #next(): void {
    if (this.#busy || this.#interactive.length + this.#background.length === 0) return;
    this.#busy = true;
    // The turn comes before the pick: a request read in it goes ahead of waiting imports.
    const pause = this.breathe();
    if (pause) {
      pause.then(() => {
        this.#busy = false;
        this.#next();
      });
      return;
    }
    this.#pick()!().finally(() => {
      this.#busy = false;
      this.#next();
    });
  }
}
