/**
 * The year in review in one statement of index lookups, whatever the history's size: the
 * figures are kept up to date on write by the triggers of the migration
 * `20261128130100_diary_stats_on_write.sql` (docs/diary.md), per user and period (a year, or
 * 0 for all time): one row of totals, counts by name (genres, directors, actors, decades,
 * ratings, months) and one row per film. $1 the user, $2 the period.
 */

/** How long each top list is. */
const TOP_STATS = 10;

function top(kind: "genre" | "director" | "actor"): string {
  return `(select coalesce(json_agg(json_build_object('name', t.name, 'count', t.n)
      order by t.n desc, t.name), '[]'::json)
    from (select name, n from public.user_stats_tallies
           where user_id = $1::uuid and period = $2::int and kind = '${kind}'
           order by n desc, name limit ${TOP_STATS}) t)`;
}

function counts(kind: "rating" | "month", length: number): string {
  return `(select coalesce(json_object_agg(name, n), '{}'::json)
    from public.user_stats_tallies
    where user_id = $1::uuid and period = $2::int and kind = '${kind}'
      and name in (${Array.from({ length }, (_, i) => `'${i + 1}'`).join(", ")}))`;
}

function mark(order: string, where: string): string {
  return `(select json_build_object('catalogId', catalog_id, 'watchedOn', ${where}::text)
    from public.user_stats_films
    where user_id = $1::uuid and period = $2::int and ${where} is not null
    order by ${order} limit 1)`;
}

/** The statement (read with the server's privileges, scoped to the user by $1). */
export const STATS_SQL = `select coalesce(p.films, 0) as films,
    coalesce(p.viewings, 0) as viewings,
    coalesce(p.rewatches, 0) as rewatches,
    coalesce(p.minutes, 0)::float8 as minutes,
    coalesce(p.incomplete, 0) as incomplete,
    coalesce(p.rating_count, 0) as "ratingCount",
    case when p.rating_count > 0
      then round(p.rating_sum::numeric / p.rating_count, 2)::float8 end as "ratingAverage",
    ${counts("rating", 10)} as histogram,
    ${counts("month", 12)} as "byMonth",
    ${top("genre")} as genres,
    ${top("director")} as directors,
    ${top("actor")} as actors,
    (select coalesce(json_agg(json_build_object('decade', name::int, 'count', n)
        order by name::int), '[]'::json)
       from public.user_stats_tallies
      where user_id = $1::uuid and period = $2::int and kind = 'decade') as decades,
    (select coalesce(json_agg(t.catalog_id order by t.o), '[]'::json)
       from (select catalog_id, row_number() over (
                order by best desc, viewings desc, last_on desc nulls last, catalog_id) as o
               from (select catalog_id, best, viewings, last_on from public.user_stats_films
                      where user_id = $1::uuid and period = $2::int and best is not null
                      order by best desc, viewings desc, last_on desc nulls last, catalog_id
                      limit ${TOP_STATS}) f) t) as "topRated",
    ${mark("first_on, catalog_id", "first_on")} as "firstWatch",
    ${mark("last_on desc, catalog_id desc", "last_on")} as "lastWatch"
  from (select 1) one
  left join public.user_stats_periods p on p.user_id = $1::uuid and p.period = $2::int`;

/** The years with anything counted, newest first: $1 the user. */
export const YEARS_SQL = `select period as y from public.user_stats_periods
  where user_id = $1::uuid and period > 0 order by period desc`;
