/** Recommendations: AI-generated, cached per user, limited per day, with provider fallback. */
export { createRecommendService } from "./service.ts";
export { LOCK_TTL_MS, takeGenerationLease } from "./lease.ts";
export type {
  RecommendMode,
  RecommendResult,
  RecommendService,
  RecommendServiceOptions,
  RegenerationError,
} from "./types.ts";
export type { CurrentSet } from "./current.ts";
export type { Shelf, ShelfCard } from "./shelf.ts";
export { MAX_DISMISSED } from "./dismissed.ts";
export { recommendQuerySchema } from "./query.ts";
export { DAILY_LIMIT, type QuotaStatus } from "./quota.ts";
export type { CandidateSearch, SearchHit } from "./resolve_titles.ts";
