/** The shapes of the recommendation service: its modes, its answer and its options. */
import type { QuotaStatus } from "./quota.ts";
import type { SearchFn } from "./resolve_titles.ts";

/** Default: reuse a reusable set; refresh: regenerate; getNew: regenerate without the previous set. */
export type RecommendMode = "default" | "refresh" | "getNew";

/** Why the last regeneration failed, in the stale answer. */
export interface RegenerationError {
  status: number;
  code: string;
  message: string;
  retryable: boolean;
}

/** The body of GET /api/recommend. */
export interface RecommendResult {
  recommendations: number[];
  cached: boolean;
  stale: boolean;
  regenerationError: RegenerationError | null;
  staleRecommendations: number[] | null;
}

/** Recommendations and the daily quota of a user. */
export interface RecommendService {
  recommend(userId: string, options?: { mode?: RecommendMode }): Promise<RecommendResult>;
  quota(userId: string): Promise<QuotaStatus>;
}

/** What the service needs beyond AppDeps. */
export interface RecommendServiceOptions {
  /** The catalog search unresolved titles fall back to. */
  search: SearchFn;
  /** Per provider attempt; 30 s by default (tests shorten it). */
  timeoutMs?: number;
  /** Lifetime of the per-user generation lock if it is never released. */
  lockTtlMs?: number;
}
