/**
 * What follows a change to a movie's viewings, in two statements run as the user: each
 * viewing's rewatch mark, and the watched row as the movie's summary (docs/diary.md).
 */
import type { Sql } from "@/lib/platform/store/mod.ts";

// A viewing is a rewatch when the movie has one before it: an earlier date, or the same date
// logged earlier. An imported viewing keeps the file's own mark too (Letterboxd's Rewatch: a
// film seen before the diary began), so an import's true is never taken back.
const REWATCH_SQL = `update public.user_viewings t
    set rewatch = o.n > 1 or (t.source = 'import' and t.rewatch)
  from (select id,
          row_number() over (partition by catalog_id order by watched_on, created_at, id) as n
          from public.user_viewings
         where user_id = (select auth.uid()) and catalog_id = any($1::integer[])) o
  where t.id = o.id and t.rewatch is distinct from (o.n > 1 or (t.source = 'import' and t.rewatch))`;

// The watched row's date is the latest viewing's; its rating the latest viewing's when that
// one has a rating (else the row keeps its own). No viewing left: the row stays as it is.
const SUMMARY_SQL = `update public.user_watched_movies w
    set watched_on = l.watched_on, rating = coalesce(l.rating, w.rating)
  from (select watched_on, rating from public.user_viewings
         where user_id = (select auth.uid()) and catalog_id = $1
         order by watched_on desc, created_at desc, id desc limit 1) l
  where w.user_id = (select auth.uid()) and w.catalog_id = $1
    and (w.watched_on is distinct from l.watched_on
      or w.rating is distinct from coalesce(l.rating, w.rating))`;

/** Brings the rewatch marks of a movie's viewings and its watched row up to date (as the user). */
export async function syncMovie(tx: Sql, catalogId: number): Promise<void> {
  await tx.query(REWATCH_SQL, [[catalogId]]);
  await tx.query(SUMMARY_SQL, [catalogId]);
}

// SUMMARY_SQL for many movies at once (a Trakt client's history batch).
const SUMMARIES_SQL = `update public.user_watched_movies w
    set watched_on = l.watched_on, rating = coalesce(l.rating, w.rating)
  from (select distinct on (catalog_id) catalog_id, watched_on, rating
          from public.user_viewings
         where user_id = (select auth.uid()) and catalog_id = any($1::integer[])
         order by catalog_id, watched_on desc, created_at desc, id desc) l
  where w.user_id = (select auth.uid()) and w.catalog_id = l.catalog_id
    and (w.watched_on is distinct from l.watched_on
      or w.rating is distinct from coalesce(l.rating, w.rating))`;

/** Brings the rewatch marks and watched rows of many movies up to date (as the user), at once. */
export async function syncMovies(tx: Sql, catalogIds: number[]): Promise<void> {
  if (catalogIds.length === 0) return;
  await tx.query(REWATCH_SQL, [catalogIds]);
  await tx.query(SUMMARIES_SQL, [catalogIds]);
}

/** Brings the rewatch marks of the viewings of many movies up to date (as the user), at once. */
export async function syncRewatches(tx: Sql, catalogIds: number[]): Promise<void> {
  if (catalogIds.length > 0) await tx.query(REWATCH_SQL, [catalogIds]);
}
