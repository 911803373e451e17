/**
 * What the taste profile is built from, read as the user (row-level security applies): all
 * watched ids (for the hash and the exclusions), the 60 most recent watched titles, a genre
 * histogram over the whole history, and My List. Bounded whatever the history's length.
 */
import type { Sql } from "../platform/store/mod.ts";
import { loadRated, type RatedTaste } from "./rated.ts";

/** Watched titles in the prompt (docs/recommend.md). */
export const RECENT_TITLES = 60;
/** My List titles in the prompt. */
export const MY_LIST_TITLES = 30;
/** Genres in the histogram. */
export const TOP_GENRES = 15;

/** A movie as the prompt names it. */
export interface TitledMovie {
  title: string;
  year: number;
  genres: string[];
}

/** A user's taste: everything generation needs, nothing that identifies the user. */
export interface Taste {
  watchedIds: number[];
  recent: TitledMovie[];
  genres: { name: string; count: number }[];
  myListIds: number[];
  myList: TitledMovie[];
  /** The rated titles by section; absent or empty for an unrated history. */
  rated?: RatedTaste;
}

function jsonOf<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}

/** All of a user's watched ids: what the hash needs, so a cached answer reads no more. */
export async function loadWatchedIds(tx: Sql, userId: string): Promise<number[]> {
  const rows = await tx.query<{ catalog_id: number }>(
    `select catalog_id from public.user_watched_movies where user_id = $1`,
    [userId],
  );
  return rows.map((r) => Number(r.catalog_id));
}

/** Reads a user's taste inside the user's transaction `tx`; `watchedIds` if already read. */
export async function loadTaste(
  tx: Sql,
  userId: string,
  options: { watchedIds?: number[] } = {},
): Promise<Taste> {
  const watchedIds = options.watchedIds ?? await loadWatchedIds(tx, userId);
  const recent = await tx.query<TitledMovie>(
    `select m.title, m.year, m.genres
       from public.user_watched_movies w
       join public.movies m on m.catalog_id = w.catalog_id
      where w.user_id = $1 and m.title <> ''
      order by w.created_at desc, w.catalog_id desc
      limit ${RECENT_TITLES}`,
    [userId],
  );
  const genres = await tx.query<{ name: string; count: number }>(
    `select g as name, count(*)::int as count
       from public.user_watched_movies w
       join public.movies m on m.catalog_id = w.catalog_id
       cross join lateral unnest(m.genres) as g
      where w.user_id = $1
      group by g
      order by count(*) desc, g
      limit ${TOP_GENRES}`,
    [userId],
  );
  const [list] = await tx.query<{ catalog_ids: number[]; titles: unknown }>(
    `select l.catalog_ids,
            coalesce((
              select json_agg(json_build_object('title', m.title, 'year', m.year, 'genres', m.genres)
                              order by u.ord)
                from unnest(l.catalog_ids) with ordinality as u(id, ord)
                join public.movies m on m.catalog_id = u.id
               where u.ord <= ${MY_LIST_TITLES} and m.title <> ''
            ), '[]'::json) as titles
       from public.user_my_list l
      where l.user_id = $1`,
    [userId],
  );
  const rated = await loadRated(tx, userId);
  return {
    watchedIds,
    rated,
    recent: recent.map((r) => ({ title: r.title, year: Number(r.year), genres: r.genres ?? [] })),
    genres: genres.map((r) => ({ name: r.name, count: Number(r.count) })),
    myListIds: (list?.catalog_ids ?? []).map(Number),
    myList: list ? jsonOf<TitledMovie[]>(list.titles) : [],
  };
}

/** The titles of `ids` known to the movies store, for the prompt's exclusion list. */
export async function titlesOf(sql: Sql, ids: number[]): Promise<TitledMovie[]> {
  if (ids.length === 0) return [];
  return await sql.query<TitledMovie>(
    `select m.title, m.year, m.genres
       from unnest($1::int[]) with ordinality as u(id, ord)
       join public.movies m on m.catalog_id = u.id
      where m.title <> ''
      order by u.ord`,
    [ids],
  );
}
