/**
 * Which films a details run fetches (docs/catalog.md, "The details job"): every film on any
 * user's watched list, diary, My List or own lists whose details were never fetched (no row, or
 * a light one) or were fetched with another append set than the current one, newest user
 * activity first (the latest time any entry naming it was added or changed), at most `budget`
 * of them (one call each). What a run fetched is complete afterwards, so a cut-off run's
 * successor does the rest.
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
  select e.catalog_id as id
    from e left join public.movies m on m.catalog_id = e.catalog_id
   where m.catalog_id is null or not m.has_details or m.details_appends is distinct from $1
   group by e.catalog_id
   order by max(e.at) desc, e.catalog_id
   limit $2`;

/** The ids a run fetches, in order: those lacking details fetched with `appends`. */
export async function planDetails(
  sql: Sql,
  options: { appends: string; budget: number },
): Promise<number[]> {
  const rows = await sql.query<{ id: number }>(PLAN_SQL, [options.appends, options.budget]);
  return rows.map((r) => Number(r.id));
}
