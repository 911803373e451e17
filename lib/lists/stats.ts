/**
 * The watched page's numbers over the whole history, in one statement: movies, hours (the
 * runtimes known), movies watched this (UTC) year, the average rating and the top genres.
 */
import type { Sql } from "../store/mod.ts";

/** How many genres the strip shows. */
const TOP_STAT_GENRES = 5;

/** The numbers of a user's watched history. */
export interface WatchedStats {
  movies: number;
  /** Sum of the known runtimes, in minutes (movies without one add nothing). */
  minutes: number;
  /** Movies whose watch date falls in the current UTC year (an unknown date is not counted). */
  thisYear: number;
  /** Rated movies, and their average rating on the 1-10 scale (null when none is rated). */
  rated: number;
  averageRating: number | null;
  topGenres: { name: string; count: number }[];
}

// Read with the server's privileges, scoped to the verified user by $1 (as the list reads).
const STATS_SQL = `with w as (
    select l.rating, l.watched_on, coalesce(m.runtime, 0) as runtime,
           coalesce(m.genres, '{}') as genres
      from public.user_watched_movies l
      left join public.movies m on m.catalog_id = l.catalog_id
     where l.user_id = $1::uuid
  ), g as (
    select name, count(*)::int as n
      from w cross join lateral unnest(w.genres) as name
     group by name
     order by n desc, name
     limit ${TOP_STAT_GENRES}
  )
  select count(*)::int as movies,
         coalesce(sum(runtime), 0)::int as minutes,
         (count(*) filter (where watched_on >= $2::date and watched_on < $3::date))::int
           as "thisYear",
         (count(rating))::int as rated,
         avg(rating)::float8 as "averageRating",
         (select coalesce(json_agg(json_build_object('name', name, 'count', n)
                   order by n desc, name), '[]'::json) from g) as "topGenres"
    from w`;

/** Reads the numbers of `userId`'s history; `now` (clock ms) says which year is this year. */
export async function readWatchedStats(
  sql: Sql,
  userId: string,
  options: { now: number },
): Promise<WatchedStats> {
  const year = new Date(options.now).getUTCFullYear();
  const [row] = await sql.query(STATS_SQL, [userId, `${year}-01-01`, `${year + 1}-01-01`]);
  const genres = typeof row.topGenres === "string" ? JSON.parse(row.topGenres) : row.topGenres;
  return {
    movies: Number(row.movies),
    minutes: Number(row.minutes),
    thisYear: Number(row.thisYear),
    rated: Number(row.rated),
    averageRating: row.averageRating === null ? null : Number(row.averageRating),
    topGenres: (genres as { name: string; count: number }[]).map((g) => ({
      name: String(g.name),
      count: Number(g.count),
    })),
  };
}
