/**
 * The local recommender as a service (docs/recommend.md, "Local picks"): picks for a user, "more
 * like this" as movie cards with reasons, and 👍/👎.
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { CARD_COLUMNS, toCard } from "@/lib/catalog/cards.ts";
import { buildInBackground, builtIndex } from "./feature_index.ts";
import { type FeedbackValue, giveFeedback, undoFeedback } from "./feedback.ts";
import { type LocalPick, type LocalPickOptions, localPicks } from "./picks.ts";
import { similarMovies } from "./similar.ts";
import { type SimilarCard, similarFromStore } from "./similar_cold.ts";

export type { SimilarCard };

/** What handlers call. */
export interface LocalRecommendService {
  picks(userId: string, options: LocalPickOptions): Promise<LocalPick[]>;
  /** The stored films most like `catalogId` as cards (404 when it is not stored). */
  similar(catalogId: number, options: { limit: number }): Promise<SimilarCard[]>;
  feedback(userId: string, options: { catalogId: number; value: FeedbackValue }): Promise<void>;
  undoFeedback(userId: string, catalogId: number): Promise<void>;
  /**
   * Starts building the index off the request path (main.ts, at start-up); until it is ready
   * "more like this" answers from one statement over the film's features. Resolves when ready.
   */
  warm(): Promise<void>;
}

// Inner join: a film gone from the store since the index read it is left out.
const CARDS_SQL = `select ${CARD_COLUMNS}
  from unnest($1::integer[]) with ordinality as l(catalog_id, ord)
  join public.movies m on m.catalog_id = l.catalog_id
  order by l.ord`;

/** Builds the service over the app's store and clock. */
export function createLocalRecommendService(deps: AppDeps): LocalRecommendService {
  const { store, clock } = deps;
  return {
    picks: (userId, options) => localPicks(deps, userId, options),
    async similar(catalogId, options) {
      const ready = builtIndex(store, { now: clock.now() });
      // The index is still being built: no request waits seconds for it (docs/recommend.md).
      if (!ready) return similarFromStore(store, catalogId, options);
      const picks = await similarMovies(deps, catalogId, { ...options, index: await ready });
      if (picks.length === 0) return [];
      const rows = await store.query(CARDS_SQL, [picks.map((p) => p.catalogId)]);
      const reasons = new Map(picks.map((p) => [p.catalogId, p.reasons]));
      return rows.map((r) => {
        const card = toCard(r);
        return { ...card, reasons: reasons.get(card.catalogId) ?? [] };
      });
    },
    feedback: (userId, options) =>
      store.asUser(userId, (tx) => giveFeedback(tx, userId, { ...options, now: clock.now() })),
    undoFeedback: (userId, catalogId) => store.asUser(userId, (tx) => undoFeedback(tx, catalogId)),
    warm: () => buildInBackground(store, { now: clock.now() }),
  };
}
