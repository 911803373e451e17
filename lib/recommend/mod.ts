/** Recommendations: AI-generated, cached per user, limited per day, with provider fallback. */
export { createRecommendService } from "./service.ts";
export { LOCK_TTL_MS } from "./lease.ts";
export type { RecommendMode, RecommendService } from "./types.ts";
export type { Shelf } from "./shelf.ts";
export type { LocalShelfCard } from "./local_shelf.ts";
export { recommendQuerySchema } from "./query.ts";
export { quotaHeaders } from "./quota.ts";
