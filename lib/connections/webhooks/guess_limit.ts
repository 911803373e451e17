/**
 * The limit on guessing webhook secrets (docs/connections.md): requests naming an unknown
 * secret are counted per client address in a fixed window, in this instance's memory, so a
 * guess costs one index lookup and writes nothing (neither KV nor the store). Once an address
 * is over, every webhook request from it is refused before the lookup until the window ends,
 * so a guesser learns nothing more from it. Memory is bounded: past `maxAddresses` in one
 * window, new addresses share a single count.
 */

import { Problem } from "@/lib/core/problem.ts";

/** Unknown-secret requests per client address per window, and the window. */
export const GUESS_LIMIT = { limit: 20, windowMs: 60_000, maxAddresses: 10_000 };

/** The count the addresses past `maxAddresses` share. */
const OVERFLOW = "\0overflow";

/** Counts unknown-secret requests per address; one per secret space (so per instance). */
export interface GuessLimit {
  /** Seconds until `address` may try again when it is over the limit; null while it is not. */
  refusedFor(address: string, now: number): number | null;
  /**
   * Throws 429 `rate_limited` (with Retry-After) when `address` is over the limit; `what` names
   * the addresses guessed in its words ("webhook", "feed").
   */
  refuse(address: string, now: number, what: string): void;
  /** Counts one unknown-secret request from `address`. */
  miss(address: string, now: number): void;
}

/** A guess limit of `limit` misses per address per `windowMs` (GUESS_LIMIT by default). */
export function createGuessLimit(options: Partial<typeof GUESS_LIMIT> = {}): GuessLimit {
  const { limit, windowMs, maxAddresses } = { ...GUESS_LIMIT, ...options };
  let window = -1;
  let counts = new Map<string, number>();
  // The window `now` falls in; a new one starts every count at zero.
  const current = (now: number) => {
    const w = Math.floor(now / windowMs);
    if (w !== window) {
      window = w;
      counts = new Map();
    }
  };
  const keyOf = (address: string) =>
    counts.has(address) || counts.size < maxAddresses ? address : OVERFLOW;
  const refusedFor = (address: string, now: number) => {
    current(now);
    if ((counts.get(keyOf(address)) ?? 0) < limit) return null;
    return Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000));
  };
  return {
    refusedFor,
    refuse(address, now, what) {
      const wait = refusedFor(address, now);
      if (wait === null) return;
      throw new Problem(
        429,
        "rate_limited",
        `Too many requests to unknown ${what} addresses from this address; try again later.`,
        { headers: { "Retry-After": String(wait) } },
      );
    },
    miss(address, now) {
      current(now);
      const key = keyOf(address);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    },
  };
}
