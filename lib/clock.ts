/** Time as the services see it: injected, so expiry, windows and quotas are tested without sleeping. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds of this clock's time. */
  sleep(ms: number): Promise<void>;
}

/** The wall clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};

/** A clock a test moves by hand; `sleep` advances it at once instead of waiting. */
export class FakeClock implements Clock {
  #now: number;

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

  /** Moves the clock forward. */
  advance(ms: number): void {
    this.#now += ms;
  }

  /** Sets the clock to a moment. */
  set(at: number | string | Date): void {
    this.#now = new Date(at).getTime();
  }
}
