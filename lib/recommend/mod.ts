/** Recommendations: AI-generated, cached per user, limited per day, with provider fallback. */
export { createRecommendService, LOCK_TTL_MS } from "./service.ts";
export type {
  RecommendMode,
  RecommendResult,
  RecommendService,
  RecommendServiceOptions,
  RegenerationError,
} from "./service.ts";
export type { CurrentSet } from "./current.ts";
export type { Shelf, ShelfCard } from "./shelf.ts";
export { MAX_DISMISSED } from "./dismissed.ts";
export { quotaHeadersMiddleware } from "./quota_headers.ts";
export { recommendQuerySchema } from "./query.ts";
export { DAILY_LIMIT, type QuotaStatus } from "./quota.ts";
export type { SearchFn, SearchRow } from "./resolve_titles.ts";
