/**
 * The year in review in one statement, whatever the history's size: the viewings of the period
 * (with, for a movie watched without any viewing logged, its watched row once at its date) are
 * read once into `v`, the distinct films with their movie rows once into `f`, and every number
 * and top list is an aggregate over those two. $1 the user, $2 and $3 the period's `[from, to)`
 * dates (both null: all time).
 */

/** How long each top list is. */
export const TOP_STATS = 10;

function top(column: "genres" | "directors" | "actors"): string {
  return `(select coalesce(json_agg(json_build_object('name', name, 'count', n)
      order by n desc, name), '[]'::json)
    from (select name, count(*)::int as n from f cross join lateral unnest(f.${column}) as name
          where name <> '' group by name order by n desc, name limit ${TOP_STATS}) t)`;
}

/** The statement (read with the server's privileges, scoped to the user by $1). */
export const STATS_SQL = `with v as materialized (
    select x.catalog_id, x.watched_on, x.rating, x.rewatch
      from public.user_viewings x
     where x.user_id = $1::uuid
       and ($2::date is null or (x.watched_on >= $2::date and x.watched_on < $3::date))
    union all
    select w.catalog_id, w.watched_on, w.rating, false
      from public.user_watched_movies w
     where w.user_id = $1::uuid
       and ($2::date is null or (w.watched_on >= $2::date and w.watched_on < $3::date))
       and not exists (select 1 from public.user_viewings x
                        where x.user_id = w.user_id and x.catalog_id = w.catalog_id)
  ), f as materialized (
    select v.catalog_id, max(v.rating) as best, count(*) as n, max(v.watched_on) as last_on,
           max(m.year) as year, max(m.runtime) as runtime,
           coalesce(max(m.genres), '{}') as genres,
           coalesce(max(m.directors), '{}') as directors,
           coalesce(max(m.actors), '{}') as actors
      from v left join public.movies m on m.catalog_id = v.catalog_id
     group by v.catalog_id
  )
  select (select count(*) from f)::int as films,
    (select count(*) from v)::int as viewings,
    (select count(*) filter (where rewatch) from v)::int as rewatches,
    (select coalesce(sum(coalesce(f.runtime, 0) * f.n), 0) from f)::int as minutes,
    (select count(rating) from v)::int as "ratingCount",
    (select round(avg(rating), 2) from v)::float8 as "ratingAverage",
    (select json_build_array(${
  Array.from({ length: 10 }, (_, i) => `count(*) filter (where rating = ${i + 1})`).join(", ")
}) from v) as histogram,
    (select json_build_array(${
  Array.from(
    { length: 12 },
    (_, i) => `count(*) filter (where extract(month from watched_on) = ${i + 1})`,
  ).join(", ")
}) from v) as "byMonth",
    ${top("genres")} as genres,
    ${top("directors")} as directors,
    ${top("actors")} as actors,
    (select coalesce(json_agg(json_build_object('decade', d, 'count', n) order by d), '[]'::json)
       from (select (year / 10) * 10 as d, count(*)::int as n from f where year > 0
             group by 1) t) as decades,
    (select coalesce(json_agg(catalog_id order by best desc, n desc, last_on desc, catalog_id),
       '[]'::json)
       from (select catalog_id, best, n, last_on from f where best is not null
             order by best desc, n desc, last_on desc nulls last, catalog_id
             limit ${TOP_STATS}) t) as "topRated",
    (select json_build_object('catalogId', catalog_id, 'watchedOn', watched_on::text) from v
      where watched_on is not null order by watched_on, catalog_id limit 1) as "firstWatch",
    (select json_build_object('catalogId', catalog_id, 'watchedOn', watched_on::text) from v
      where watched_on is not null order by watched_on desc, catalog_id desc limit 1)
      as "lastWatch"`;
