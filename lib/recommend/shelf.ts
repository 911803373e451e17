/**
 * The recommendations page's view of the stored set: each pick as a card (title, poster,
 * genres from the movies store) with its reason and whether it is on My List, plus when the
 * set was made and until when it is kept. Like `current`, it reads only: no lock, no quota.
 * Picks the user has watched since the set was made are left out: the page offers no action
 * on them, and the next generation drops them anyway.
 */
import { CARD_COLUMNS, type MovieCard, toCard } from "../catalog/cards.ts";
import { Problem } from "../core/problem.ts";
import type { Sql } from "../platform/store/mod.ts";
import { readCurrent } from "./current.ts";

/** One recommended movie on the page; `thumb` the user's 👍 (1), 👎 (-1) or none (0). */
interface ShelfCard extends MovieCard {
  reason: string;
  inMyList: boolean;
  thumb: number;
}

/** The stored set as the page shows it. */
export interface Shelf {
  cards: ShelfCard[];
  createdAt: string;
  expiresAt: string;
  fresh: boolean;
}

// One statement for every card: the ids in stored order, the movie row if any, and the lists.
const CARDS_SQL = `select ${CARD_COLUMNS},
    exists (select 1 from public.user_my_list s
             where s.user_id = $2::uuid and l.catalog_id = any (s.catalog_ids)) as "inMyList",
    coalesce((select f.value from public.recommend_feedback f
               where f.user_id = $2::uuid and f.catalog_id = l.catalog_id), 0) as thumb
  from unnest($1::integer[]) with ordinality as l(catalog_id, ord)
  left join public.movies m on m.catalog_id = l.catalog_id
  where not exists (select 1 from public.user_watched_movies w
                     where w.user_id = $2::uuid and w.catalog_id = l.catalog_id)
  order by l.ord`;

/** The user's stored set as cards, inside the user's transaction; null when none is stored. */
export async function readShelf(
  tx: Sql,
  userId: string,
  options: { now: number },
): Promise<Shelf | null> {
  let current;
  try {
    current = await readCurrent(tx, userId, options);
  } catch (error) {
    if (error instanceof Problem && error.code === "no_recommendations") return null;
    throw error;
  }
  const reasons = new Map(current.recommendations.map((r) => [r.catalogId, r.reason]));
  const rows = await tx.query(CARDS_SQL, [[...reasons.keys()], userId]);
  return {
    cards: rows.map((row) => {
      const card = toCard(row);
      return {
        ...card,
        reason: reasons.get(card.catalogId) ?? "",
        inMyList: !!row.inMyList,
        thumb: Number(row.thumb),
      };
    }),
    createdAt: current.createdAt,
    expiresAt: current.expiresAt,
    fresh: current.fresh,
  };
}
