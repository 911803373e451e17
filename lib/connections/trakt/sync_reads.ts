/**
 * The user's own movie data as Trakt's sync reads answer it (docs/trakt.md, "Reads"): the
 * watched films with their plays, the history (one item per diary viewing), the ratings and the
 * watchlist (My List). Each read is one statement scoped to the user by `$1`.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";
import { traktMovie, traktMovieColumns, type TraktMovieRow } from "./movie_object.ts";
import { type PageAsk, pageSql } from "./pagination.ts";

/** Options every read takes: `extended=full` asked. */
interface ReadOptions {
  full?: boolean;
}

/** One page of a read and how many items the whole read holds. */
interface ReadPage<T> {
  items: T[];
  total: number;
}

/** A time as Trakt writes it: ISO 8601 in UTC with milliseconds. */
export function isoSql(expression: string): string {
  return `to_char((${expression}) at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * The instant of a viewing (`v`): a diary viewing has a day, not a time, so one logged on the
 * day it was watched is dated the moment it was logged, any other midnight UTC of its day.
 */
const VIEWING_AT_SQL = "(case when v.watched_on = (v.created_at at time zone 'utc')::date " +
  "then v.created_at else v.watched_on::timestamp at time zone 'utc' end)";

/** Trakt's history action of a viewing's source: a player's plays are scrobbles. */
function actionOf(source: string): "scrobble" | "checkin" | "watch" {
  if (source === "scrobble" || source === "webhook") return "scrobble";
  if (source === "checkin") return "checkin";
  return "watch";
}

type Row = TraktMovieRow & Record<string, unknown>;

/**
 * `GET /sync/watched/movies`: every watched film with its plays (at least 1). Each film's
 * viewings are counted through the viewings' (user, film) index, a probe per film: a join to all
 * of the user's viewings was planned, for a user the planner's statistics did not know yet, as a
 * nested loop over every pair (2.4 s and then the store's 5 s bound at 10,000 films on
 * PostgreSQL, instead of tens of milliseconds).
 */
export async function readWatched(sql: Sql, userId: string, options: ReadOptions = {}) {
  const lastWatched =
    "coalesce(v.last_at, w.watched_on::timestamp at time zone 'utc', w.created_at)";
  const rows = await sql.query<Row>(
    `select w.catalog_id, greatest(1, v.plays)::int as plays,
       ${isoSql(lastWatched)} as last_watched_at,
       ${isoSql("greatest(w.created_at, w.rated_at, v.last_logged)")} as last_updated_at,
       ${traktMovieColumns(options.full)}
     from public.user_watched_movies w
     cross join lateral (
       select count(*) as plays, max(${VIEWING_AT_SQL}) as last_at, max(v.created_at) as last_logged
         from public.user_viewings v where v.user_id = w.user_id and v.catalog_id = w.catalog_id
     ) v
     left join public.movies m on m.catalog_id = w.catalog_id
     where w.user_id = $1::uuid
     order by ${lastWatched} desc, w.catalog_id desc`,
    [userId],
  );
  return rows.map((r) => ({
    plays: r.plays as number,
    last_watched_at: r.last_watched_at as string,
    last_updated_at: r.last_updated_at as string,
    movie: traktMovie(r, options),
  }));
}

/** The history read's filters: one film, a time range (ISO instants), a page. */
interface HistoryQuery extends ReadOptions {
  catalogId?: number;
  startAt?: string;
  endAt?: string;
  page: PageAsk | null;
}

/** `GET /sync/history/movies[/:id]`: one item per viewing, newest first, `id` stable. */
export async function readHistory(
  sql: Sql,
  userId: string,
  query: HistoryQuery,
): Promise<ReadPage<Record<string, unknown>>> {
  const params: unknown[] = [userId];
  const p = (value: unknown) => `$${params.push(value)}`;
  const where = ["v.user_id = $1::uuid"];
  if (query.catalogId !== undefined) where.push(`v.catalog_id = ${p(query.catalogId)}::int`);
  if (query.startAt) where.push(`${VIEWING_AT_SQL} >= ${p(query.startAt)}::timestamptz`);
  if (query.endAt) where.push(`${VIEWING_AT_SQL} <= ${p(query.endAt)}::timestamptz`);
  const order = `${VIEWING_AT_SQL} desc, v.trakt_id desc`;
  // An empty page (or one past the end) is one row without a viewing, carrying the count.
  const rows = await sql.query<Row>(
    `select t.total, h.* from (
       select count(*)::int as total from public.user_viewings v where ${where.join(" and ")}
     ) t
     left join lateral (
       select v.trakt_id::text as history_id, v.source, ${isoSql(VIEWING_AT_SQL)} as watched_at,
         v.catalog_id, ${traktMovieColumns(query.full)}, ${VIEWING_AT_SQL} as at
         from public.user_viewings v
         left join public.movies m on m.catalog_id = v.catalog_id
        where ${where.join(" and ")}
        order by ${order}${pageSql(query.page)}
     ) h on true
     order by h.at desc, h.history_id::bigint desc`,
    params,
  );
  const total = rows[0]?.total as number ?? 0;
  const items = rows.filter((r) => r.catalog_id !== null).map((r) => ({
    id: Number(r.history_id),
    watched_at: r.watched_at as string,
    action: actionOf(r.source as string),
    type: "movie",
    movie: traktMovie(r, query),
  }));
  return { items, total };
}

/** The ratings read's filters: the ratings asked (none: all) and a page. */
interface RatingsQuery extends ReadOptions {
  ratings?: number[];
  page: PageAsk | null;
}

/** `GET /sync/ratings/movies[/:rating]`: the watched films' ratings, latest first. */
export async function readRatings(
  sql: Sql,
  userId: string,
  query: RatingsQuery,
): Promise<ReadPage<Record<string, unknown>>> {
  const params: unknown[] = [userId];
  const where = ["w.user_id = $1::uuid", "w.rating is not null"];
  if (query.ratings?.length) {
    params.push(query.ratings);
    where.push("w.rating = any ($2::int[])");
  }
  const order = "coalesce(w.rated_at, w.created_at) desc, w.catalog_id desc";
  const rows = await sql.query<Row>(
    `select t.total, r.* from (
       select count(*)::int as total from public.user_watched_movies w where ${where.join(" and ")}
     ) t
     left join lateral (
       select w.catalog_id, w.rating, ${isoSql("coalesce(w.rated_at, w.created_at)")} as rated_at,
         coalesce(w.rated_at, w.created_at) as at, ${traktMovieColumns(query.full)}
         from public.user_watched_movies w
         left join public.movies m on m.catalog_id = w.catalog_id
        where ${where.join(" and ")}
        order by ${order}${pageSql(query.page)}
     ) r on true
     order by r.at desc, r.catalog_id desc`,
    params,
  );
  const total = rows[0]?.total as number ?? 0;
  const items = rows.filter((r) => r.catalog_id !== null).map((r) => ({
    rated_at: r.rated_at as string,
    rating: r.rating as number,
    type: "movie",
    movie: traktMovie(r, query),
  }));
  return { items, total };
}

/** The orders of the watchlist read (Trakt's `:sort`). */
export const WATCHLIST_SORTS = ["rank", "added", "released", "title"] as const;

/** The watchlist read's order and page. */
interface WatchlistQuery extends ReadOptions {
  sort?: typeof WATCHLIST_SORTS[number];
  page: PageAsk | null;
}

const WATCHLIST_ORDER: Record<typeof WATCHLIST_SORTS[number], string> = {
  rank: "l.ord",
  // My List keeps its films in the order they were added.
  added: "l.ord",
  released: "m.release_date nulls last, l.ord",
  title: "lower(coalesce(m.title, '')), l.ord",
};

/**
 * `GET /sync/watchlist/movies[/:sort]`: My List in its order, `rank` the place (from 1) and
 * `id` the film's catalog id (a film is on My List once). My List keeps one time for all its
 * films, its last change, which is each item's `listed_at`.
 */
export async function readWatchlist(
  sql: Sql,
  userId: string,
  query: WatchlistQuery,
): Promise<ReadPage<Record<string, unknown>>> {
  const order = WATCHLIST_ORDER[query.sort ?? "rank"];
  const rows = await sql.query<Row>(
    `select t.total, t.listed_at, r.* from (
       select coalesce(cardinality(s.catalog_ids), 0)::int as total,
         ${isoSql("s.updated_at")} as listed_at
         from (select 1) one
         left join public.user_my_list s on s.user_id = $1::uuid
     ) t
     left join lateral (
       select l.catalog_id, l.ord::int as rank, ${traktMovieColumns(query.full)},
         row_number() over (order by ${order}) as place
         from public.user_my_list s
         cross join lateral unnest(s.catalog_ids) with ordinality as l(catalog_id, ord)
         left join public.movies m on m.catalog_id = l.catalog_id
        where s.user_id = $1::uuid
        order by ${order}${pageSql(query.page)}
     ) r on true
     order by r.place`,
    [userId],
  );
  const total = rows[0]?.total as number ?? 0;
  const listedAt = rows[0]?.listed_at as string;
  const items = rows.filter((r) => r.catalog_id !== null).map((r) => ({
    rank: r.rank as number,
    id: r.catalog_id,
    listed_at: listedAt,
    notes: null,
    type: "movie",
    movie: traktMovie(r, query),
  }));
  return { items, total };
}
