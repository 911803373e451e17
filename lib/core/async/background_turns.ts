/**
 * One scheduler for a process's CPU-heavy background work (history imports: reading the file
 * and carrying the run on, docs/history.md). Every piece of it takes turns, first come first
 * served, one slice at a time, and after each turn the scheduler pauses so that all of it
 * together takes at most `share` of the event loop's time: five imports at once share the
 * budget one import has, and a request waits for at most one slice before it runs. Work a person
 * is waiting on (reading an upload before its answer) may ask to go `first`: it takes turns
 * before the rest, within the same share.
 */
import type { Clock } from "../clock.ts";

/** The longest turn a piece of background work gets before the next one's. */
const SLICE_MS = 8;
/** Of the event loop's time, the most all background work together takes. */
const SHARE = 0.5;

/** Time as the scheduler measures it: monotonic, not the app's (which tests move by hand). */
const monotonic: Pick<Clock, "now" | "sleep"> = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};

/** One grant of the event loop to one piece of background work. */
export interface Turn {
  /** True once the slice is used up, or the scheduler took the turn back. */
  readonly spent: boolean;
  /** Gives the turn back (its holder ticks after the slice, or is done). */
  end(): void;
}

/** What the scheduler is told: its time source (injected in tests), slice and share. */
interface TurnOptions {
  clock?: Pick<Clock, "now" | "sleep">;
  sliceMs?: number;
  /** Between 0 (exclusive) and 1: 0.5 pauses as long as each turn took. */
  share?: number;
}

const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Hands out turns of the event loop to background work, one at a time, with pauses between. */
export class BackgroundTurns {
  readonly #waiting: ((turn: Turn) => void)[] = [];
  readonly #first: ((turn: Turn) => void)[] = [];
  readonly #clock: Pick<Clock, "now" | "sleep">;
  readonly #sliceMs: number;
  readonly #share: number;
  #running = false;

  constructor(options: TurnOptions = {}) {
    this.#clock = options.clock ?? monotonic;
    this.#sliceMs = options.sliceMs ?? SLICE_MS;
    this.#share = Math.min(1, Math.max(0.01, options.share ?? SHARE));
  }

  /**
   * Resolves with a turn once every piece of work waiting before this one has had its own;
   * `first`: once every `first` piece before it has (the others wait behind it).
   */
  take(options: { first?: boolean } = {}): Promise<Turn> {
    const queue = options.first ? this.#first : this.#waiting;
    const turn = new Promise<Turn>((resolve) => queue.push(resolve));
    if (!this.#running) this.#run();
    return turn;
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      const next = () => this.#first.shift() ?? this.#waiting.shift();
      for (let grant = next(); grant; grant = next()) {
        const used = await this.#grant(grant);
        await this.#clock.sleep(used * (1 - this.#share) / this.#share);
        // Whatever the pause, requests waiting on the event loop run before the next turn.
        await macrotask();
      }
    } finally {
      this.#running = false;
    }
  }

  /** Gives one turn and waits for its end; how long it took. */
  async #grant(grant: (turn: Turn) => void): Promise<number> {
    const clock = this.#clock;
    const sliceMs = this.#sliceMs;
    const start = clock.now();
    let ended = false;
    let release = () => {};
    const over = new Promise<void>((resolve) => release = resolve);
    const turn: Turn = {
      get spent() {
        return ended || clock.now() - start >= sliceMs;
      },
      end() {
        ended = true;
        release();
      },
    };
    grant(turn);
    // A holder that is waiting on I/O instead of ticking loses its turn after the slice: a
    // wall-clock timer on purpose, as the injected clock of a test does not move by itself.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const takenBack = new Promise<void>((resolve) => timer = setTimeout(resolve, sliceMs));
    await Promise.race([over, takenBack]);
    clearTimeout(timer);
    turn.end();
    return Math.max(0, clock.now() - start);
  }
}
