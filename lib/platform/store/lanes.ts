/**
 * The embedded store's queue (docs/faults.md, "Background work on the embedded store"): PGlite
 * runs one statement at a time on the event loop's thread, so every call waits its turn here.
 * A person's request (the interactive lane) goes before background work (history imports, the
 * background lane), so health and a reader wait at most for the one statement running, never
 * behind an import's queue. After `backgroundEvery` interactive calls in a row while background
 * work waits, one background call runs, so a busy instance slows an import but never starves it
 * past the store's deadline.
 */

/** Which lane a store call waits in. */
export type Lane = "interactive" | "background";

/** Interactive calls run in a row, while background work waits, before one background call. */
const BACKGROUND_EVERY = 8;

type Task = () => Promise<void>;

/** A two-lane queue that runs one task at a time, interactive first. */
export class LaneQueue {
  readonly #interactive: Task[] = [];
  readonly #background: Task[] = [];
  readonly #backgroundEvery: number;
  #busy = false;
  #streak = 0;

  constructor(options: { backgroundEvery?: number } = {}) {
    this.#backgroundEvery = options.backgroundEvery ?? BACKGROUND_EVERY;
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
    if (this.#busy) return;
    const task = this.#pick();
    if (!task) return;
    this.#busy = true;
    task().finally(() => {
      this.#busy = false;
      this.#next();
    });
  }
}
