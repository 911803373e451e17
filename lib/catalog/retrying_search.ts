/**
 * The catalog search of work that runs in the background (the history import, the webhook
 * receiver): through the shared window as background work (at most half of each window), tried
 * again on a transient failure, and a busy window waited out for as long as the caller allows.
 */
import type { Clock } from "../core/clock.ts";
import { Problem } from "../core/problem.ts";
import type { MovieSource } from "./types.ts";
import type { TitleSearch } from "./unique_match.ts";

const SEARCH_ATTEMPTS = 3;

// The longest pause a busy answer's Retry-After may ask for.
const MAX_BUSY_PAUSE_MS = 30_000;

// Our own window full, or TMDB rate limiting (the window closed until its Retry-After).
function busy(error: Problem): boolean {
  return error.code === "upstream_busy" || error.code === "rate_limited";
}

function busyPause(error: Problem): number {
  const seconds = Number(error.headers["Retry-After"]);
  return Math.min(MAX_BUSY_PAUSE_MS, 1000 * (Number.isFinite(seconds) ? Math.max(1, seconds) : 1));
}

/**
 * The search, retried. A failure of TMDB (5xx, unreachable) is tried 3 times in all, 1 s and
 * 2 s apart. A busy window is waited out for `patienceMs` (0, the default: it counts as a
 * failure too), pausing as its Retry-After says.
 */
export function retryingSearch(
  catalog: MovieSource,
  clock: Clock,
  options: { patienceMs?: number } = {},
): TitleSearch {
  const patienceMs = options.patienceMs ?? 0;
  return async (title, year) => {
    const began = clock.now();
    for (let failures = 0;;) {
      try {
        return (await catalog.search(title, { year, wait: true, background: true })).value
          .results;
      } catch (error) {
        if (!(error instanceof Problem) || (error.status !== 429 && error.status < 500)) {
          throw error;
        }
        if (busy(error) && clock.now() - began < patienceMs) {
          await clock.sleep(busyPause(error));
          continue;
        }
        if (++failures >= SEARCH_ATTEMPTS) throw error;
        await clock.sleep(1000 * failures);
      }
    }
  };
}
