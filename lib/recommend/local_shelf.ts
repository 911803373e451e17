/**
 * The recommendations page's local picks (docs/recommend.md, "Two stages"): the user's best 12
 * local picks (lib/recommend/local: free, no AI, nothing written) as cards with their reasons
 * and the user's 👍 on each, in one read after the model's.
 */
import { CARD_COLUMNS, type MovieCard, toCard } from "../catalog/cards.ts";
import type { AppDeps } from "../platform/deps.ts";
import { localPicks } from "./local/mod.ts";
import { readStoredSet } from "./cache.ts";

/** Local picks on the page. */
const SHELF_PICKS = 12;

/** One local pick as the page shows it; `thumb` is the user's 👍 (1), 👎 (-1) or none (0). */
export interface LocalShelfCard extends MovieCard {
  reasons: string[];
  thumb: number;
}

// Inner join: a film gone from the store since the model's index read it is left out.
const CARDS_SQL = `select ${CARD_COLUMNS},
    coalesce((select f.value from public.recommend_feedback f
               where f.user_id = $2::uuid and f.catalog_id = l.catalog_id), 0) as thumb
  from unnest($1::integer[]) with ordinality as l(catalog_id, ord)
  join public.movies m on m.catalog_id = l.catalog_id
  order by l.ord`;

/**
 * The user's local picks as cards, best first (the "only what I can stream" switch applies);
 * a film of the stored AI set is left out, so the page never shows one twice.
 */
export async function readLocalShelf(deps: AppDeps, userId: string): Promise<LocalShelfCard[]> {
  const stored = await deps.store.asUser(userId, (tx) => readStoredSet(tx, userId));
  const picks = await localPicks(deps, userId, { limit: SHELF_PICKS, exclude: stored?.ids ?? [] });
  if (picks.length === 0) return [];
  const reasons = new Map(picks.map((p) => [p.catalogId, p.reasons]));
  const rows = await deps.store.asUser(
    userId,
    (tx) => tx.query(CARDS_SQL, [picks.map((p) => p.catalogId), userId]),
  );
  return rows.map((row) => ({
    ...toCard(row),
    reasons: reasons.get(Number(row.catalogId)) ?? [],
    thumb: Number(row.thumb),
  }));
}
