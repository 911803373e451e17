/**
 * The availability job's share of the shared external window (docs/availability.md): at most
 * `perSecond` calls (10, a quarter of the 40) in any 1-second window of the clock, and at most
 * `budget` calls in the run. It wraps the shared window, so every call still takes a place
 * there too; the shared window is not changed.
 */
import type { Clock } from "@/lib/core/clock.ts";
import type { ExternalWindow } from "../external_window.ts";
import { Problem } from "@/lib/core/problem.ts";

/** The job's calls per second by default: a quarter of the shared 40. */
const JOB_CALLS_PER_SECOND = 10;

/** The shared window as the job sees it, with the calls it has made. */
export interface PacedWindow extends ExternalWindow {
  /** Calls that took a place so far. */
  readonly calls: number;
}

/** Thrown by `acquire` once the run's budget is spent: the call is not made. */
function budgetSpent(): Problem {
  return new Problem(503, "budget_spent", "The run's call budget is spent.");
}

/** Wraps `shared` with the job's pacing and budget. */
export function pacedWindow(
  shared: ExternalWindow,
  options: { clock: Clock; budget: number; perSecond?: number; windowMs?: number },
): PacedWindow {
  const { clock, budget } = options;
  const perSecond = options.perSecond ?? JOB_CALLS_PER_SECOND;
  const windowMs = options.windowMs ?? 1000;
  // Places per clock window: taken, plus those reserved by callers waiting on the shared window.
  let second = -1;
  let taken = 0;
  let pending = 0;
  let calls = 0;
  const roll = () => {
    const now = Math.floor(clock.now() / windowMs);
    if (now !== second) {
      second = now;
      taken = 0;
    }
    return now;
  };

  async function acquire(opts: { wait: boolean }) {
    for (;;) {
      if (calls + pending >= budget) throw budgetSpent();
      roll();
      if (taken + pending >= perSecond) {
        await clock.sleep((second + 1) * windowMs - clock.now());
        continue;
      }
      pending++;
      const reservedIn = second;
      let headers;
      try {
        headers = await shared.acquire(opts);
      } finally {
        pending--;
      }
      // The shared window may have made the call wait into a later window: it counts there.
      const now = roll();
      if (now === reservedIn || taken < perSecond) {
        taken++;
        calls++;
        return headers;
      }
      // That window already holds the job's share: the place goes unused rather than exceed it.
    }
  }

  return {
    acquire,
    block: (until) => shared.block(until),
    peek: () => shared.peek(),
    peekNow: () => shared.peekNow(),
    taken: (at) => shared.taken(at),
    get calls() {
      return calls;
    },
  };
}
