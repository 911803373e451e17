/** Time as the services see it: injected, so expiry, windows and quotas are tested without sleeping. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds of this clock's time. */
  sleep(ms: number): Promise<void>;
  /** Calls `fn` every `ms` milliseconds of this clock's time; the returned function stops it. */
  every(ms: number, fn: () => void): () => void;
}

/** The wall clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
  every(ms, fn) {
    const id = setInterval(fn, Math.max(1, ms));
    return () => clearInterval(id);
  },
};

interface Repeat {
  due: number;
  periodMs: number;
  fn: () => void;
}

/**
 * A clock a test moves by hand; `sleep` advances it at once instead of waiting, and moving it
 * runs the `every` callbacks that fall due on the way, each at its own moment.
 */
export class FakeClock implements Clock {
  #now: number;
  readonly #repeats = new Set<Repeat>();

  constructor(start: number | string | Date = "2026-11-22T12:00:00Z") {
    this.#now = new Date(start).getTime();
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number): Promise<void> {
    this.advance(Math.max(0, ms));
    return Promise.resolve();
  }

  every(ms: number, fn: () => void): () => void {
    const periodMs = Math.max(1, ms);
    const repeat = { due: this.#now + periodMs, periodMs, fn };
    this.#repeats.add(repeat);
    return () => this.#repeats.delete(repeat);
  }

  /** Moves the clock forward, running due `every` callbacks in time order. */
  advance(ms: number): void {
    const target = this.#now + ms;
    for (let next = this.#nextDue(target); next; next = this.#nextDue(target)) {
      this.#now = next.due;
      next.due += next.periodMs;
      next.fn();
    }
    this.#now = target;
  }

  /** Sets the clock to a moment (forward runs due callbacks; backward runs none). */
  set(at: number | string | Date): void {
    const target = new Date(at).getTime();
    if (target >= this.#now) this.advance(target - this.#now);
    else this.#now = target;
  }

  #nextDue(limit: number): Repeat | undefined {
    let first: Repeat | undefined;
    for (const r of this.#repeats) if (r.due <= limit && (!first || r.due < first.due)) first = r;
    return first;
  }
}
