/**
 * Counting outgoing calls by the injected clock's time, so tests of the shared rate window check
 * "never more than N calls in one window" without sleeping or aligning to the wall clock.
 */
import type { Clock } from "../../lib/clock.ts";

/** A fetch that notes the clock's time of every call it sends, then sends it. */
export function timedFetch(clock: Clock): { fetch: typeof fetch; sent: number[] } {
  const sent: number[] = [];
  return {
    sent,
    fetch: (input, init) => {
      sent.push(clock.now());
      return fetch(input, init);
    },
  };
}

/** How many of `times` fall in each 1-second window, in time order. */
export function perWindow(times: number[]): number[] {
  const counts = new Map<number, number>();
  for (const at of times) {
    const second = Math.floor(at / 1000);
    counts.set(second, (counts.get(second) ?? 0) + 1);
  }
  return [...counts].sort(([a], [b]) => a - b).map(([, n]) => n);
}
