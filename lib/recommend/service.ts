/**
 * GET /api/recommend as a service, with the checks in the order of docs/api.md:
 * a generation in progress (409, the lease read, not taken), no watched movies (400), cache
 * (answered without the lease, writing nothing); then the lease is taken (409 if another
 * request took it first), the quota unit (429) and the generation. A failed regeneration with a
 * stored set answers the stale shape; a 500 or 503 gives the unit back, and without a stored set
 * AI_FALLBACK=local turns the 503 into the local picks (docs/recommend.md, "Two stages"). The
 * first checks are one statement and two KV reads at once (docs/recommend.md, "Reads").
 */
import type { AppDeps } from "../platform/deps.ts";
import { describeError } from "../core/log.ts";
import { internalError, Problem } from "../core/problem.ts";
import {
  generationInProgress,
  localAnswer,
  noWatchedMovies,
  quotaExceeded,
  setAnswer,
  staleAnswer,
} from "./answers.ts";
import { localPicks } from "./local/mod.ts";
import { isReusable, readStoredSet, type StoredSet, watchedHash } from "./cache.ts";
import type { SessionCheck } from "../platform/session_check.ts";
import { readHistoryState } from "./cached_read.ts";
import { readCurrent } from "./current.ts";
import { dismiss, dismissedIds, undismiss } from "./dismissed.ts";
import { isGenerationRunning, withGenerationLease } from "./lease.ts";
import { consumeQuota, quotaStatus, type QuotaUnit, refundQuota } from "./quota.ts";
import { createRegenerate } from "./generation.ts";
import { readShelf } from "./shelf.ts";
import { readLocalShelf } from "./local_shelf.ts";
import { loadWatchedIds } from "./taste.ts";
import type {
  RecommendAnswer,
  RecommendMode,
  RecommendResult,
  RecommendService,
  RecommendServiceOptions,
} from "./types.ts";

// As many local picks as a generated set holds at most.
const LOCAL_FALLBACK_PICKS = 20;

/** Builds the recommendation service. */
export function createRecommendService(
  deps: AppDeps,
  options: RecommendServiceOptions,
): RecommendService {
  const { store, kv, clock, log } = deps;
  const regenerate = createRegenerate(deps, options);

  function readHistory(userId: string) {
    return store.asUser(userId, async (tx) => ({
      watchedIds: await loadWatchedIds(tx, userId),
      stored: await readStoredSet(tx, userId),
    }));
  }

  async function takeQuotaUnit(userId: string): Promise<QuotaUnit> {
    const unit = await consumeQuota(kv, userId, { clock });
    if (unit) return unit;
    throw quotaExceeded(await quotaStatus(kv, userId, { clock }), { now: clock.now() });
  }

  // A 500 or 503 gives the unit back; with a stored set the failure becomes the stale answer.
  async function answerFailure(
    error: unknown,
    { userId, unit, stored }: { userId: string; unit: QuotaUnit; stored: StoredSet | null },
  ): Promise<RecommendResult> {
    const problem = error instanceof Problem ? error : internalError(error);
    if (problem.status === 500 || problem.status === 503) {
      // A KV failure here costs the user a unit, but must not replace the real answer.
      await refundQuota(kv, unit).catch((e) =>
        log({ level: "warn", msg: "quota refund failed", error: describeError(e) })
      );
    }
    if (!stored) {
      // AI_FALLBACK=local: where the answer would be a 503, the local picks (unit given back).
      if (problem.status === 503 && deps.config.aiFallback === "local") {
        return await fallbackAnswer(userId);
      }
      throw problem;
    }
    if (problem.status >= 500 && problem.code === "internal_error") {
      log({
        level: "error",
        msg: "recommendation regeneration failed",
        error: String(error).slice(0, 300),
      });
    }
    return staleAnswer(problem, { storedIds: stored.ids });
  }

  // The local picks as GET /api/recommend's answer: nothing stored, so the next request asks
  // the AI again; "only what I can stream" as the user's saved switch says.
  async function fallbackAnswer(userId: string): Promise<RecommendResult> {
    const picks = await localPicks(deps, userId, { limit: LOCAL_FALLBACK_PICKS });
    return localAnswer(picks.map((p) => p.catalogId));
  }

  async function answer(
    userId: string,
    mode: RecommendMode,
    session?: SessionCheck,
  ): Promise<RecommendAnswer> {
    // The lease and the quota read beside the statement: a cached answer waits for one round
    // trip of each. The quota only where the answer may be cached: a generation spends a unit,
    // so its headers are read after it. A failing quota read leaves them to the middleware.
    const [running, history, quota] = await Promise.all([
      isGenerationRunning(kv, userId, { clock }),
      readHistoryState(store, userId, { session }),
      mode === "default" ? quotaStatus(kv, userId, { clock }).catch(() => null) : null,
    ]);
    if (running) throw generationInProgress();
    if (history.watchedCount === 0) throw noWatchedMovies();
    const { stored } = history;
    // A fresh set is answered as it is: no lease, no quota, nothing written.
    if (
      mode === "default" && stored?.sameHistory && stored.expiresAt.getTime() > clock.now()
    ) {
      return { result: setAnswer(stored.ids, { cached: true }), quota };
    }
    // The lease before the quota: of many requests at once, one generates and the others
    // answer 409 (a generation is in progress) without spending a unit (docs/recommend.md).
    const result = await withGenerationLease(deps, () => generate(userId, mode), {
      userId,
      ttlMs: options.lockTtlMs,
    });
    return { result, quota: null };
  }

  // Under the lease: the history read again, since a generation that ended between the first
  // read and the lease may have stored the set this request would make.
  async function generate(userId: string, mode: RecommendMode): Promise<RecommendResult> {
    const { watchedIds, stored } = await readHistory(userId);
    if (watchedIds.length === 0) throw noWatchedMovies();
    const hash = await watchedHash(watchedIds);
    if (mode === "default" && isReusable(stored, { hash, now: clock.now() })) {
      return setAnswer(stored.ids, { cached: true });
    }
    const unit = await takeQuotaUnit(userId);
    try {
      return setAnswer(await regenerate(userId, { mode, stored, hash, watchedIds }), {
        cached: false,
      });
    } catch (error) {
      return await answerFailure(error, { userId, unit, stored });
    }
  }

  return {
    recommend: async (userId, { mode = "default" } = {}) => (await answer(userId, mode)).result,
    answer: (userId, { mode = "default", session } = {}) => answer(userId, mode, session),
    quota: (userId) => quotaStatus(kv, userId, { clock }),
    current: (userId) =>
      store.asUser(userId, (tx) => readCurrent(tx, userId, { now: clock.now() })),
    shelf: (userId) => store.asUser(userId, (tx) => readShelf(tx, userId, { now: clock.now() })),
    localShelf: (userId) => readLocalShelf(deps, userId),
    dismiss: (userId, catalogId) =>
      store.asUser(userId, (tx) => dismiss(tx, userId, { catalogId, now: clock.now() })),
    undismiss: (userId, catalogId) => store.asUser(userId, (tx) => undismiss(tx, catalogId)),
    dismissed: (userId) => store.asUser(userId, (tx) => dismissedIds(tx, userId)),
  };
}
