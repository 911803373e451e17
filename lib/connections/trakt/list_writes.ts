/**
 * Trakt's sync/ratings and sync/watchlist writes (docs/trakt.md, "Writes and scrobbles"), run as
 * the user under the lists' lock. A rating goes on the watched film and its latest viewing, as a
 * media server's rating does; a film not yet watched becomes watched (without a viewing), as
 * Trakt lets one rate it, and leaves My List. The watchlist is My List with its rule: a watched
 * film is not added.
 */
import { rateWatched } from "@/lib/library/diary/mod.ts";
import { listRoom, MAX_MY_LIST } from "@/lib/library/entries/limits.ts";
import {
  lockLists,
  readMyList,
  removeFromMyList,
  replaceMyList,
  upsertWatched,
} from "@/lib/library/entries/writes.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";
import { overListLimit } from "./history_writes.ts";

const WATCHED_SQL = `select catalog_id, rating from public.user_watched_movies
  where user_id = (select auth.uid()) and catalog_id = any($1::integer[])`;

async function watchedOf(tx: Sql, ids: number[]): Promise<Map<number, number | null>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.query<{ catalog_id: number; rating: number | null }>(WATCHED_SQL, [ids]);
  return new Map(rows.map((r) => [Number(r.catalog_id), r.rating === null ? null : +r.rating]));
}

// A client's own `rated_at` (a sync hub copying ratings over) replaces the write's time, which
// the store's trigger gave the rating (20261206090100_trakt_activity.sql).
const RATED_AT_SQL = `update public.user_watched_movies set rated_at = $2::timestamptz
  where user_id = (select auth.uid()) and catalog_id = $1 and rating is not null`;

/**
 * Rates each film (the last rating of a film in the batch wins, with its `ratedAt` when given);
 * how many were rated.
 */
export async function addRatings(
  tx: Sql,
  ratings: { catalogId: number; rating: number; ratedAt?: string }[],
  options: { userId: string; ratedAt: string },
): Promise<number> {
  await lockLists(tx, options.userId);
  const last = new Map(ratings.map((r) => [r.catalogId, r.rating]));
  const ratedAt = new Map(ratings.map((r) => [r.catalogId, r.ratedAt]));
  const watched = await watchedOf(tx, [...last.keys()]);
  const fresh = [...last.keys()].filter((id) => !watched.has(id));
  if (fresh.length > await listRoom(tx, "watched")) {
    throw overListLimit("The watched list has no room for these films.");
  }
  const rows = fresh.map((catalogId) => ({ catalogId, watchedOn: null, rating: null, note: null }));
  await upsertWatched(tx, rows, { addedAt: options.ratedAt, update: [] });
  for (const id of fresh) await removeFromMyList(tx, id);
  for (const [catalogId, rating] of last) {
    await rateWatched(tx, { userId: options.userId, catalogId, rating });
    const at = ratedAt.get(catalogId);
    if (at !== undefined) await tx.query(RATED_AT_SQL, [catalogId, at]);
  }
  return last.size;
}

/** Clears the rating of each watched film that has one; how many were cleared. */
export async function removeRatings(
  tx: Sql,
  catalogIds: number[],
  options: { userId: string },
): Promise<number> {
  await lockLists(tx, options.userId);
  const watched = await watchedOf(tx, [...new Set(catalogIds)]);
  let cleared = 0;
  for (const [catalogId, rating] of watched) {
    if (rating === null) continue;
    await rateWatched(tx, { userId: options.userId, catalogId, rating: null });
    cleared++;
  }
  return cleared;
}

/** What a watchlist write did, with My List as it is after it. */
interface WatchlistOutcome {
  changed: number;
  existing: number;
  watched: number[];
  list: { updated_at: string; item_count: number };
}

const LIST_SQL = `select to_char(updated_at at time zone 'UTC',
    'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at, coalesce(array_length(catalog_ids, 1), 0) as n
  from public.user_my_list where user_id = (select auth.uid())`;

async function listState(tx: Sql, fallback: string) {
  const [row] = await tx.query<{ updated_at: string; n: number }>(LIST_SQL);
  return { updated_at: row?.updated_at ?? fallback, item_count: Number(row?.n ?? 0) };
}

/**
 * Appends the films to My List in order: a watched film is not added (listed in `watched`), one
 * already there is `existing`; 420 when My List has no room for the rest.
 */
export async function addToWatchlist(
  tx: Sql,
  catalogIds: number[],
  options: { userId: string; at: string },
): Promise<WatchlistOutcome> {
  await lockLists(tx, options.userId);
  const ids = [...new Set(catalogIds)];
  const watched = await watchedOf(tx, ids);
  const myList = await readMyList(tx);
  const onList = new Set(myList);
  const fresh = ids.filter((id) => !watched.has(id) && !onList.has(id));
  if (myList.length + fresh.length > MAX_MY_LIST) {
    throw overListLimit(`My List holds at most ${MAX_MY_LIST.toLocaleString("en")} films.`);
  }
  if (fresh.length > 0) await replaceMyList(tx, [...myList, ...fresh], { updatedAt: options.at });
  return {
    changed: fresh.length,
    existing: ids.filter((id) => !watched.has(id) && onList.has(id)).length,
    watched: ids.filter((id) => watched.has(id)),
    list: await listState(tx, options.at),
  };
}

/** Takes the films off My List; how many were on it. */
export async function removeFromWatchlist(
  tx: Sql,
  catalogIds: number[],
  options: { userId: string; at: string },
): Promise<WatchlistOutcome> {
  await lockLists(tx, options.userId);
  const myList = await readMyList(tx);
  const gone = new Set(catalogIds);
  const left = myList.filter((id) => !gone.has(id));
  if (left.length !== myList.length) await replaceMyList(tx, left, { updatedAt: options.at });
  return {
    changed: myList.length - left.length,
    existing: 0,
    watched: [],
    list: await listState(tx, options.at),
  };
}
