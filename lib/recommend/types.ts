/** The shapes of the recommendation service: its modes, its answer and its options. */
import type { StreamingFilter } from "./streaming.ts";
import type { CurrentSet } from "./current.ts";
import type { QuotaStatus } from "./quota.ts";
import type { CandidateSearch } from "./resolve_titles.ts";
import type { Shelf } from "./shelf.ts";
import type { LocalShelfCard } from "./local_shelf.ts";
import type { SessionCheck } from "../platform/session_check.ts";

/** Default: reuse a reusable set; refresh: regenerate; getNew: regenerate without the previous set. */
export type RecommendMode = "default" | "refresh" | "getNew";

/** Why the last regeneration failed, in the stale answer. */
interface RegenerationError {
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
  /** Who chose the films: the AI (from the local candidates) or, as a fallback, the local picks. */
  source: "ai" | "local";
}

/** GET /api/recommend's body and, for a cached answer, the quota read beside it. */
export interface RecommendAnswer {
  result: RecommendResult;
  /** The quota as read with the cached set (null after a generation, or when unreadable). */
  quota: QuotaStatus | null;
}

/** Recommendations and the daily quota of a user. */
export interface RecommendService {
  recommend(userId: string, options?: { mode?: RecommendMode }): Promise<RecommendResult>;
  /**
   * `recommend` with the quota read beside a cached set; `session` is the token's session,
   * checked inside the first statement (401 when it ended).
   */
  answer(
    userId: string,
    options?: { mode?: RecommendMode; session?: SessionCheck },
  ): Promise<RecommendAnswer>;
  quota(userId: string): Promise<QuotaStatus>;
  /** The stored set with its reasons; no lock, no quota, no generation (404 when none). */
  current(userId: string): Promise<CurrentSet>;
  /** The stored set as the website's cards (null when none); reads only, like `current`. */
  shelf(userId: string): Promise<Shelf | null>;
  /** The best local picks as the website's cards, with the user's 👍/👎 (free: no AI, no quota). */
  localShelf(userId: string): Promise<LocalShelfCard[]>;
  /** Marks a movie "not interested": it leaves the stored set and is never recommended again. */
  dismiss(userId: string, catalogId: number): Promise<void>;
  /** Undoes a dismissal. */
  undismiss(userId: string, catalogId: number): Promise<void>;
  /** The dismissed ids, newest first. */
  dismissed(userId: string): Promise<number[]>;
}

/** What the service needs beyond AppDeps. */
export interface RecommendServiceOptions {
  /** The catalog search unresolved titles fall back to. */
  search: CandidateSearch;
  /**
   * The catalog's details of one movie through the shared window, storing it: a dismissed
   * movie the store lacks is looked up so the prompt can name it.
   */
  details?: (catalogId: number) => Promise<unknown>;
  /** The user's "only what I can stream" filter, or null when off (lib/catalog/my_streaming). */
  streaming?: (userId: string) => Promise<StreamingFilter | null>;
  /** Per provider attempt; 30 s by default (tests shorten it). */
  timeoutMs?: number;
  /** Lifetime of the per-user generation lock if it is never released. */
  lockTtlMs?: number;
}
