/**
 * The year in review computed from scratch, the way it was read before the figures were kept
 * on write (docs/diary.md): the tests compare the maintained figures with it after every kind of
 * write, so the triggers keep the answers exact.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";

const TOP_STATS = 10;

function top(column: "genres" | "directors" | "actors"): string {
  return `(select coalesce(json_agg(json_build_object('name', name, 'count', n)
      order by n desc, name), '[]'::json)
    from (select name, count(*)::int as n from f cross join lateral unnest(f.${column}) as name
          where name <> '' group by name order by n desc, name limit ${TOP_STATS}) t)`;
}

/** The aggregate over every viewing: $1 the user, $2 and $3 the period's [from, to) (null: all time). */
const REFERENCE_STATS_SQL = `with v as materialized (
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
           not coalesce(bool_or(m.has_details), false) as incomplete,
           coalesce(max(m.genres), '{}') as genres,
           coalesce(max(m.directors), '{}') as directors,
           coalesce(max(m.actors), '{}') as actors
      from v left join public.movies m on m.catalog_id = v.catalog_id
     group by v.catalog_id
  )
  select (select count(*) from f)::int as films,
    (select count(*) from v)::int as viewings,
    (select count(*) filter (where rewatch) from v)::int as rewatches,
    (select count(*) filter (where incomplete) from f)::int as incomplete,
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

const json = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);

/** The figures of `year` (null: all time) in GET /api/stats's shape. */
export async function referenceStats(sql: Sql, userId: string, year: number | null) {
  const range = year === null ? [null, null] : [`${year}-01-01`, `${year + 1}-01-01`];
  const [r] = await sql.query(REFERENCE_STATS_SQL, [userId, ...range]);
  const histogram = json(r.histogram) as number[];
  const mark = (v: unknown) => {
    const m = json(v) as { catalogId: number; watchedOn: string } | null;
    return m ? { catalogId: Number(m.catalogId), watchedOn: String(m.watchedOn) } : null;
  };
  const named = (v: unknown) =>
    (json(v) as { name: string; count: number }[]).map((g) => ({
      name: String(g.name),
      count: Number(g.count),
    }));
  return {
    year,
    films: Number(r.films),
    viewings: Number(r.viewings),
    rewatches: Number(r.rewatches),
    incomplete: Number(r.incomplete),
    hours: Math.round(Number(r.minutes) / 6) / 10,
    ratings: {
      count: Number(r.ratingCount),
      average: r.ratingAverage === null ? null : Number(r.ratingAverage),
      histogram: Object.fromEntries(histogram.map((n, i) => [String(i + 1), Number(n)])),
    },
    byMonth: year === null ? null : (json(r.byMonth) as number[]).map(Number),
    genres: named(r.genres),
    directors: named(r.directors),
    actors: named(r.actors),
    decades: (json(r.decades) as { decade: number; count: number }[])
      .map((d) => ({ decade: Number(d.decade), count: Number(d.count) })),
    topRated: (json(r.topRated) as number[]).map(Number),
    firstWatch: mark(r.firstWatch),
    lastWatch: mark(r.lastWatch),
  };
}
