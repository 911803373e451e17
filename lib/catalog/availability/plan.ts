/**
 * Which movies a run refreshes: every distinct movie on the My List of a user with services,
 * oldest stored providers first (never fetched first of all), skipping those refreshed within
 * the last 20 hours, so a daily run covers each once and a run after a cut-off one does only
 * what is left. At most `budget` of them (one call each). A forced run (the operator's
 * `{"force":true}`) skips nothing: every such movie, still oldest first. After them, within what
 * is left of the budget, the films whose release data is more than 7 days old while one of their
 * dates is within 60 days of today (`planReleaseRefetch`).
 */
import type { Sql } from "@/lib/platform/store/mod.ts";

/** Providers refreshed more recently than this are not refreshed again by a run. */
const REFRESHED_RECENTLY_MS = 20 * 3_600_000;

const PLAN_SQL = `select d.catalog_id as id
  from (select distinct x.catalog_id
          from public.user_my_list l
          join public.user_services us on us.user_id = l.user_id
          cross join lateral unnest(l.catalog_ids) as x(catalog_id)
         where cardinality(us.provider_ids) > 0) d
  left join public.movies m on m.catalog_id = d.catalog_id
 where $3::boolean or m.providers_cached_at is null or m.providers_cached_at < $1
 order by m.providers_cached_at asc nulls first, d.catalog_id
 limit $2`;

/** The ids a run started at `now` refreshes, in order. */
export async function planRun(
  sql: Sql,
  options: { now: number; budget: number; force?: boolean },
): Promise<number[]> {
  const rows = await sql.query<{ id: number }>(PLAN_SQL, [
    new Date(options.now - REFRESHED_RECENTLY_MS).toISOString(),
    options.budget,
    options.force === true,
  ]);
  return rows.map((r) => Number(r.id));
}

/** Release data fetched longer ago than this is fetched again when a date is near. */
const RELEASES_STALE_MS = 7 * 86_400_000;
/** "Near": a stored release date (any region, any type) this many days from today or less. */
const RELEASE_NEAR_DAYS = 60;

// The films any calendar shows (My List, watched, own lists of every user), with release data
// fetched more than 7 days ago and a date within 60 days of today, oldest fetch first.
const RELEASES_PLAN_SQL = `with ids as (
    select distinct x.catalog_id
      from public.user_my_list l cross join lateral unnest(l.catalog_ids) as x(catalog_id)
    union
    select w.catalog_id from public.user_watched_movies w
    union
    select i.catalog_id from public.user_list_items i
  )
  select m.catalog_id as id
    from ids join public.movies m on m.catalog_id = ids.catalog_id
   where m.release_dates is not null and m.cached_at < $1::timestamptz
     and not (m.catalog_id = any ($5::integer[]))
     and exists (
       select 1 from jsonb_each(m.release_dates) r, jsonb_array_elements(
           case when jsonb_typeof(r.value) = 'array' then r.value else '[]'::jsonb end) d
        where d.value ->> 'date' between $2::text and $3::text)
   order by m.cached_at asc, m.catalog_id
   limit $4`;

/**
 * The films whose release data a run started at `now` fetches again, in order, at most
 * `budget`, leaving out `planned` (the run refreshes those anyway).
 */
export async function planReleaseRefetch(
  sql: Sql,
  options: { now: number; budget: number; planned: number[] },
): Promise<number[]> {
  if (options.budget <= 0) return [];
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const near = RELEASE_NEAR_DAYS * 86_400_000;
  const rows = await sql.query<{ id: number }>(RELEASES_PLAN_SQL, [
    new Date(options.now - RELEASES_STALE_MS).toISOString(),
    day(options.now - near),
    day(options.now + near),
    options.budget,
    options.planned,
  ]);
  return rows.map((r) => Number(r.id));
}
