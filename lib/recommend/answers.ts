/** The answers and refusals of GET /api/recommend (docs/api.md), built in one place. */
import { Problem } from "../core/problem.ts";
import type { QuotaStatus } from "./quota.ts";
import { quotaHeaders } from "./quota.ts";
import type { RecommendResult } from "./types.ts";

/**
 * A set served as is: just generated (`cached` false) or reused from the store (`cached` true);
 * both made by the two stages, so their source is "ai".
 */
export function setAnswer(ids: number[], options: { cached: boolean }): RecommendResult {
  return {
    recommendations: ids,
    cached: options.cached,
    stale: false,
    regenerationError: null,
    staleRecommendations: null,
    source: "ai",
  };
}

/**
 * AI_FALLBACK=local: the local picks in place of a 503, in the successful shape with
 * `"source":"local"` (nothing stored, no quota spent).
 */
export function localAnswer(ids: number[]): RecommendResult {
  return { ...setAnswer(ids, { cached: false }), source: "local" };
}

/** A failed regeneration that still has the stored set to offer. */
export function staleAnswer(problem: Problem, options: { storedIds: number[] }): RecommendResult {
  return {
    recommendations: [],
    cached: false,
    stale: true,
    regenerationError: {
      status: problem.status,
      code: problem.code,
      message: problem.message,
      retryable: problem.status === 503,
    },
    staleRecommendations: options.storedIds,
    source: "ai",
  };
}

/** 409: a generation for this user is already running. */
export function generationInProgress(): Problem {
  return new Problem(
    409,
    "generation_in_progress",
    "Recommendations are already being generated for you.",
    { headers: { "Retry-After": "5" } },
  );
}

/** 400: nothing watched, so nothing to base recommendations on. */
export function noWatchedMovies(): Problem {
  return new Problem(
    400,
    "no_watched_movies",
    "Mark some movies as watched to get recommendations.",
  );
}

/** 429: the day's generations are used up; Retry-After counts to the reset. */
export function quotaExceeded(status: QuotaStatus, options: { now: number }): Problem {
  const retryAfterS = Math.max(1, Math.ceil((status.resetAt.getTime() - options.now) / 1000));
  return new Problem(
    429,
    "quota_exceeded",
    `The daily limit of ${status.limit} recommendation generations is reached.`,
    { headers: { ...quotaHeaders(status), "Retry-After": String(retryAfterS) } },
  );
}
