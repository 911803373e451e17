/** The refusals of the shared external window, with the headers that say when to come back. */
import { Problem } from "../core/problem.ts";

/** 429: the window is full and the caller asked not to wait. */
export function windowFull(headers: Record<string, string>): Problem {
  return new Problem(
    429,
    "rate_limited",
    "Too many requests to the movie database right now; try again shortly.",
    { headers },
  );
}

/** 503: the window would not reopen within the longest wait. */
export function upstreamBusy(headers: Record<string, string>): Problem {
  return new Problem(503, "upstream_busy", "The movie database is busy; try again shortly.", {
    headers,
  });
}
