/**
 * GET /api/recommend as a service, with the checks in the order of contract section 6:
 * lock (409), no watched movies (400), cache, quota (429), generation. A failed regeneration
 * with a stored set answers the stale shape; a 500 or 503 gives the quota unit back.
 */
import type { AppDeps } from "../deps.ts";
import { tryLock } from "../kv_lock.ts";
import { describeError } from "../log.ts";
import { internalError, Problem } from "../problem.ts";
import { isFresh, readStoredSet, type StoredSet, watchedHash } from "./cache.ts";
import { type CurrentSet, readCurrent } from "./current.ts";
import { dismiss, dismissedIds, undismiss } from "./dismissed.ts";
import { generate } from "./generate.ts";
import { parseOutput } from "./parse_output.ts";
import { label } from "./prompt.ts";
import { complete } from "./providers.ts";
import { consumeQuota, quotaHeaders, type QuotaStatus, quotaStatus, refundQuota } from "./quota.ts";
import { resolveTitles, type SearchFn } from "./resolve_titles.ts";
import { NOT_INTERESTED_TITLES } from "./steering.ts";
import { readShelf, type Shelf } from "./shelf.ts";
import { emailOf, storePicks } from "./store_picks.ts";
import { loadTaste, loadWatchedIds, titlesOf } from "./taste.ts";

/** Default: reuse a fresh set; refresh: regenerate; getNew: regenerate without the previous set. */
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
  /** The stored set with its reasons; no lock, no quota, no generation (404 when none). */
  current(userId: string): Promise<CurrentSet>;
  /** The stored set as the website's cards (null when none); reads only, like `current`. */
  shelf(userId: string): Promise<Shelf | null>;
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
  search: SearchFn;
  /** Per provider attempt; 30 s by default (tests shorten it). */
  timeoutMs?: number;
  /** Lifetime of the per-user generation lock if it is never released. */
  lockTtlMs?: number;
}

/** A lock outlives any sane generation, and expires by itself if its process dies. */
export const LOCK_TTL_MS = 5 * 60_000;

function fresh(ids: number[], cached: boolean): RecommendResult {
  return {
    recommendations: ids,
    cached,
    stale: false,
    regenerationError: null,
    staleRecommendations: null,
  };
}

/** Builds the recommendation service. */
export function createRecommendService(
  deps: AppDeps,
  options: RecommendServiceOptions,
): RecommendService {
  const { store, kv, clock, log } = deps;

  async function regenerate(
    userId: string,
    { mode, stored, hash, watchedIds }: {
      mode: RecommendMode;
      stored: StoredSet | null;
      hash: string;
      watchedIds: number[];
    },
  ): Promise<number[]> {
    const previousIds = mode === "getNew" ? stored?.ids ?? [] : [];
    // The profile is read only here: a cached answer needs the watched ids alone.
    const { taste, previousTitles, dismissed, dismissedTitles } = await store.asUser(
      userId,
      async (tx) => {
        const dismissed = await dismissedIds(tx, userId);
        return {
          taste: await loadTaste(tx, userId, { watchedIds }),
          previousTitles: (await titlesOf(tx, previousIds)).map(label),
          dismissed,
          dismissedTitles: (await titlesOf(tx, dismissed.slice(0, NOT_INTERESTED_TITLES)))
            .map(label),
        };
      },
    );
    const picks = await generate(taste, {
      previousIds,
      previousTitles,
      dismissedIds: dismissed,
      dismissedTitles,
      ask: (messages) =>
        complete(deps.config.aiProviders, messages, {
          fetch: deps.fetch,
          parse: parseOutput,
          timeoutMs: options.timeoutMs,
          log,
        }),
      resolve: (candidates) =>
        resolveTitles(candidates, { sql: store, search: options.search, log }),
    });
    const email = await emailOf(store, userId);
    return await store.asUser(
      userId,
      (tx) => storePicks(tx, userId, { picks, watchedHash: hash, email, now: clock.now() }),
    );
  }

  async function recommend(userId: string, { mode = "default" }: { mode?: RecommendMode } = {}) {
    const ttlMs = options.lockTtlMs ?? LOCK_TTL_MS;
    const lock = await tryLock(kv, ["recommend_lock", userId], { ttlMs, clock });
    if (!lock) {
      throw new Problem(
        409,
        "generation_in_progress",
        "Recommendations are already being generated for you.",
        {
          headers: { "Retry-After": "5" },
        },
      );
    }
    // Rounds times providers times models at 30 s each can outlast the TTL: keep the lease
    // while this process works, so a second request cannot start a second generation.
    const heartbeat = setInterval(() => {
      lock.renew().catch((error) =>
        log({ level: "warn", msg: "recommend lock renewal failed", error: describeError(error) })
      );
    }, Math.max(1, Math.floor(ttlMs / 3)));
    try {
      const { watchedIds, stored } = await store.asUser(userId, async (tx) => ({
        watchedIds: await loadWatchedIds(tx, userId),
        stored: await readStoredSet(tx, userId),
      }));
      if (watchedIds.length === 0) {
        throw new Problem(
          400,
          "no_watched_movies",
          "Mark some movies as watched to get recommendations.",
        );
      }
      const hash = await watchedHash(watchedIds);
      if (mode === "default" && isFresh(stored, hash, clock.now())) return fresh(stored.ids, true);

      const unit = await consumeQuota(kv, userId, { clock });
      if (!unit) {
        const status = await quotaStatus(kv, userId, { clock });
        throw new Problem(
          429,
          "quota_exceeded",
          `The daily limit of ${status.limit} recommendation generations is reached.`,
          {
            headers: {
              ...quotaHeaders(status),
              "Retry-After": String(
                Math.max(1, Math.ceil((status.resetAt.getTime() - clock.now()) / 1000)),
              ),
            },
          },
        );
      }
      try {
        return fresh(await regenerate(userId, { mode, stored, hash, watchedIds }), false);
      } catch (error) {
        const problem = error instanceof Problem ? error : internalError(error);
        if (problem.status === 500 || problem.status === 503) {
          // A KV failure here costs the user a unit, but must not replace the real answer.
          await refundQuota(kv, userId, unit).catch((e) =>
            log({ level: "warn", msg: "quota refund failed", error: describeError(e) })
          );
        }
        if (!stored) throw problem;
        if (problem.status >= 500 && problem.code === "internal_error") {
          log({
            level: "error",
            msg: "recommendation regeneration failed",
            error: String(error).slice(0, 300),
          });
        }
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
          staleRecommendations: stored.ids,
        };
      }
    } finally {
      clearInterval(heartbeat);
      // The answer is ready: a KV failure here must not turn it into a 500 (and a lost quota
      // unit); the lease then expires by itself.
      await lock.release().catch((error) =>
        log({ level: "warn", msg: "recommend lock release failed", error: describeError(error) })
      );
    }
  }

  return {
    recommend,
    quota: (userId) => quotaStatus(kv, userId, { clock }),
    current: (userId) =>
      store.asUser(userId, (tx) => readCurrent(tx, userId, { now: clock.now() })),
    shelf: (userId) => store.asUser(userId, (tx) => readShelf(tx, userId, { now: clock.now() })),
    dismiss: (userId, catalogId) =>
      store.asUser(userId, (tx) => dismiss(tx, userId, { catalogId, now: clock.now() })),
    undismiss: (userId, catalogId) => store.asUser(userId, (tx) => undismiss(tx, catalogId)),
    dismissed: (userId) => store.asUser(userId, (tx) => dismissedIds(tx, userId)),
  };
}
