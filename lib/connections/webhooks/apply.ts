/**
 * What an accepted event does (docs/connections.md), as the user: a viewing logged through the
 * diary (source `webhook`, on the event's UTC date; the same movie on the same date is one
 * viewing), or a rating set on a watched movie and its latest viewing.
 */
import { logViewing } from "../../library/diary/mod.ts";
import { EARLIEST_WATCH_DATE } from "../../library/entries/entry_fields.ts";
import { lockForTransaction, type Sql } from "../../platform/store/mod.ts";

/** The event's UTC date when it is a real time from 1874 to tomorrow; else the arrival's. */
export function eventDate(at: string | undefined, now: number): string {
  const today = new Date(now).toISOString().slice(0, 10);
  const ms = at === undefined ? NaN : Date.parse(at);
  if (Number.isNaN(ms)) return today;
  const day = new Date(ms).toISOString().slice(0, 10);
  const tomorrow = new Date(now + 86_400_000).toISOString().slice(0, 10);
  return day < EARLIEST_WATCH_DATE || day > tomorrow ? today : day;
}

/** Logs the viewing; `created` is false when the movie already had one that day from a webhook. */
export async function logWebhookViewing(
  tx: Sql,
  viewing: { catalogId: number; watchedOn: string; rating?: number },
  options: { userId: string; loggedAt: string; removeFromMyList: boolean },
): Promise<boolean> {
  const logged = await logViewing(tx, { ...viewing, source: "webhook" }, options);
  return logged.created;
}

/**
 * Sets (or with null clears) the rating of a watched movie and of its latest viewing, so the
 * watched row stays the summary of its viewings; false when the movie is not watched.
 */
export async function rateWatched(
  tx: Sql,
  rating: { userId: string; catalogId: number; rating: number | null },
): Promise<boolean> {
  await lockForTransaction(tx, "userLists", rating.userId);
  const rows = await tx.query(
    `update public.user_watched_movies set rating = $2
      where user_id = (select auth.uid()) and catalog_id = $1 returning catalog_id`,
    [rating.catalogId, rating.rating],
  );
  if (!rows.length) return false;
  await tx.query(
    `update public.user_viewings set rating = $2
      where id = (select id from public.user_viewings
                   where user_id = (select auth.uid()) and catalog_id = $1
                   order by watched_on desc, created_at desc, id desc limit 1)`,
    [rating.catalogId, rating.rating],
  );
  return true;
}
