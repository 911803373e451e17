/**
 * Rating a watched movie from outside the diary (a media server's rating event,
 * docs/connections.md): the watched row and its latest viewing take the rating together, so the
 * watched row stays the summary of its viewings (docs/diary.md).
 */
import { lockLists } from "../entries/writes.ts";
import { rateLatestViewing } from "./latest_viewing.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";

/**
 * Sets (or with null clears) the rating of a watched movie and of its latest viewing, inside a
 * transaction running as its user; false when the movie is not watched.
 */
export async function rateWatched(
  tx: Sql,
  rating: { userId: string; catalogId: number; rating: number | null },
): Promise<boolean> {
  // The lists' own lock (lib/library/entries/writes.ts): list writes of one user take turns.
  await lockLists(tx, rating.userId);
  const rows = await tx.query(
    `update public.user_watched_movies set rating = $2
      where user_id = (select auth.uid()) and catalog_id = $1 returning catalog_id`,
    [rating.catalogId, rating.rating],
  );
  if (!rows.length) return false;
  await rateLatestViewing(tx, rating);
  return true;
}
