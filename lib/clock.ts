/** Time as the services see it: injected, so expiry, windows and quotas are tested without sleeping. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds of this clock's time. */
  sleep(ms: number): Promise<void>;
  /** Calls `tick` every `ms` milliseconds of this clock's time until the returned stop is called. */
  every(ms: number, tick: () => void): () => void;
}

/** The wall clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
  every: (ms, tick) => {
    const id = setInterval(tick, ms);
    return () => clearInterval(id);
  },
};

/** A clock a test moves by hand; `sleep` advances it at once instead of waiting. */
export class FakeClock implements Clock {
  #now: number;
  #timers = new Set<{ due: number; ms: number; tick: () => void }>();

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

  every(ms: number, tick: () => void): () => void {
    const timer = { due: this.#now + Math.max(1, ms), ms: Math.max(1, ms), tick };
    this.#timers.add(timer);
    return () => this.#timers.delete(timer);
  }

  /** Moves the clock forward, firing each `every` timer as its moments pass. */
  advance(ms: number): void {
    this.set(this.#now + ms);
  }

  /** Sets the clock to a moment, firing each `every` timer as its moments pass. */
  set(at: number | string | Date): void {
    const target = new Date(at).getTime();
    for (;;) {
      const next = [...this.#timers].sort((a, b) => a.due - b.due)[0];
      if (!next || next.due > target) break;
      this.#now = Math.max(this.#now, next.due);
      next.due += next.ms;
      next.tick();
    }
    this.#now = target;
  }
}
