/**
 * Which movies a run refreshes: every distinct movie on the My List of a user with services,
 * oldest stored providers first (never fetched first of all), skipping those refreshed within
 * the last 20 hours, so a daily run covers each once and a run after a cut-off one does only
 * what is left. At most `budget` of them (one call each). A forced run (the operator's
 * `{"force":true}`) skips nothing: every such movie, still oldest first.
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
