/**
 * Counting outgoing calls by the injected clock's time, so tests of the shared rate window check
 * "never more than N calls in one window" without sleeping or aligning to the wall clock.
 */
import { type Clock, FakeClock } from "@/lib/core/clock.ts";

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

/**
 * A FakeClock whose `sleep` moves time on only after every pending microtask has run, as real
 * time would. With FakeClock's instant sleep, a waiter's sleep could move the shared clock into
 * the next window between another call's place being taken and that call being sent (their
 * promise chains interleave), so the call was counted in a window it did not take a place in.
 */
export class SettlingClock extends FakeClock {
  override sleep(ms: number): Promise<void> {
    const target = this.now() + Math.max(0, ms);
    return new Promise((resolve) =>
      setTimeout(() => {
        if (target > this.now()) this.advance(target - this.now());
        resolve();
      }, 0)
    );
  }
}
