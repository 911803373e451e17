/**
 * Which films a details run fetches (docs/catalog.md, "The details job"): every film on any
 * user's watched list, diary, My List or own lists whose details were never fetched (no row, or
 * a light one) or were fetched with another append set than the current one, newest user
 * activity first (the latest time any entry naming it was added or changed), at most `budget`
 * of them (one call each), leaving out a film whose last fetch failed until its retry time
 * (./failures.ts). What a run fetched is complete afterwards, so a cut-off run's successor does
 * the rest.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";

const PLAN_SQL = `with e as (
    select w.catalog_id, w.created_at as at from public.user_watched_movies w
    union all
    select v.catalog_id, v.created_at from public.user_viewings v
    union all
    select x.catalog_id, l.updated_at
      from public.user_my_list l cross join lateral unnest(l.catalog_ids) as x(catalog_id)
    union all
    select i.catalog_id, i.added_at from public.user_list_items i
  )
  select e.catalog_id as id, max(f.failures) as failures
    from e left join public.movies m on m.catalog_id = e.catalog_id
      left join public.details_failures f on f.catalog_id = e.catalog_id
   where (m.catalog_id is null or not m.has_details or m.details_appends is distinct from $1)
     and (f.retry_at is null or f.retry_at <= $3::timestamptz)
   group by e.catalog_id
   order by max(e.at) desc, e.catalog_id
   limit $2`;

/** A planned film: its id, and whether an earlier fetch of it failed (its row to clear). */
interface PlannedFilm {
  id: number;
  failedBefore: boolean;
}

/**
 * The films a run fetches, in order: those lacking details fetched with `appends`, but not
 * those a failure leaves out until after `now` (ms).
 */
export async function planDetails(
  sql: Sql,
  options: { appends: string; budget: number; now: number },
): Promise<PlannedFilm[]> {
  const rows = await sql.query<{ id: number; failures: number | null }>(PLAN_SQL, [
    options.appends,
    options.budget,
    new Date(options.now).toISOString(),
  ]);
  return rows.map((r) => ({ id: Number(r.id), failedBefore: r.failures != null }));
}
