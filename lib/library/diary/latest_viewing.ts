/**
 * The rating of a watched movie's latest viewing: whoever rates the movie as a whole (the watched
 * entry, "Rate what you watched" without a viewing id, a media server's rating event) rates its
 * latest viewing too, so the watched row stays the summary of its viewings (docs/diary.md).
 */
import type { Sql } from "@/lib/platform/store/mod.ts";

// The latest in the diary's one order (sync.ts, read.ts): date, then when it was logged.
const LATEST_SQL = `update public.user_viewings set rating = $2
  where id = (select id from public.user_viewings
               where user_id = (select auth.uid()) and catalog_id = $1
               order by watched_on desc, created_at desc, id desc limit 1)`;

/** Sets (or with null clears) the rating of the movie's latest viewing, as the user; none: no-op. */
export async function rateLatestViewing(
  tx: Sql,
  rating: { catalogId: number; rating: number | null },
): Promise<void> {
  await tx.query(LATEST_SQL, [rating.catalogId, rating.rating]);
}
