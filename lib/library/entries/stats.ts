/**
 * The watched page's numbers over the whole history, in one statement: movies, hours, movies
 * watched this (UTC) year, the average rating and the top genres. They are the year in review's
 * own figures (docs/diary.md, "The figures, one definition each"), read from the all-time and
 * this year's totals its triggers keep, so /watched and /stats never disagree.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";

/** How many genres the strip shows. */
const TOP_STAT_GENRES = 5;

/** The numbers of a user's watched history. */
export interface WatchedStats {
  /** Distinct movies watched: /stats's all-time films. */
  movies: number;
  /** Each viewing's known runtime, summed, in minutes (a rewatch adds its runtime again). */
  minutes: number;
  /** Movies with a viewing (or a viewing-less watch date) in the current UTC year. */
  thisYear: number;
  /** Rated viewings, and their average on the 1-10 scale to two decimals (null: none rated). */
  rated: number;
  averageRating: number | null;
  topGenres: { name: string; count: number }[];
  /** Movies still without details (the details job is fetching them; docs/catalog.md). */
  incomplete: number;
}

// Read with the server's privileges, scoped to the verified user by $1 (as the list reads):
// the year in review's totals kept on write (all time, period 0, and this year's) and its
// all-time genre tallies, each the head of an index, so the strip costs the same whatever the
// history's length; the average is rounded as GET /api/stats rounds it.
const STATS_SQL = `select coalesce(a.films, 0)::int as movies,
         coalesce(a.minutes, 0)::int as minutes,
         coalesce(y.films, 0)::int as "thisYear",
         coalesce(a.rating_count, 0)::int as rated,
         case when a.rating_count > 0
           then round(a.rating_sum::numeric / a.rating_count, 2)::float8 end as "averageRating",
         (select coalesce(json_agg(json_build_object('name', g.name, 'count', g.n)
                   order by g.n desc, g.name), '[]'::json)
            from (select t.name, t.n from public.user_stats_tallies t
                   where t.user_id = $1::uuid and t.period = 0 and t.kind = 'genre'
                   order by t.n desc, t.name
                   limit ${TOP_STAT_GENRES}) g) as "topGenres",
         (select coalesce(max(p.incomplete), 0) from public.user_stats_periods p
           where p.user_id = $1::uuid and p.period = 0)::int as incomplete
    from (select 1) as one
    left join public.user_stats_periods a on a.user_id = $1::uuid and a.period = 0
    left join public.user_stats_periods y on y.user_id = $1::uuid and y.period = $2::int`;

/** Reads the numbers of `userId`'s history; `now` (clock ms) says which year is this year. */
export async function readWatchedStats(
  sql: Sql,
  userId: string,
  options: { now: number },
): Promise<WatchedStats> {
  const year = new Date(options.now).getUTCFullYear();
  const [row] = await sql.query(STATS_SQL, [userId, year]);
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
    incomplete: Number(row.incomplete),
  };
}
