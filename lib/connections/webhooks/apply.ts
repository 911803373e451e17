/**
 * What an accepted event does (docs/connections.md), as the user: a viewing logged through the
 * diary (source `webhook`, on the event's UTC date; the same movie on the same date is one
 * viewing), or a rating set through the diary on a watched movie and its latest viewing
 * (`rateWatched`, lib/library/diary/rate_watched.ts). A viewing past the diary's caps or the
 * watched list's limit is not logged, and the event says why (`fullReason`).
 */
import { Problem } from "@/lib/core/problem.ts";
import { logViewing } from "@/lib/library/diary/mod.ts";
import { EARLIEST_WATCH_DATE } from "@/lib/library/entries/entry_fields.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";

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
 * The reason an event is `ignored` when logging its viewing met a limit (the diary's 1,000 viewings
 * of a film or 200,000 in all: `too_many_viewings`; the watched list's 100,000 films:
 * `list_full`), else null. The media server gets its 2xx either way: a 400 would only make it
 * retry or report an error its person cannot act on there.
 */
export function fullReason(error: unknown): string | null {
  return error instanceof Problem && error.status === 400 &&
      (error.code === "too_many_viewings" || error.code === "list_full")
    ? error.code
    : null;
}
