/**
 * The catalog's SQL over `public.movies`: read rows, upsert a complete row, upsert light rows
 * without ever touching the detail fields of a row that has them, and find stale or missing ids.
 */
import type { Sql } from "../platform/store/mod.ts";
import type { DetailRow, LightRow, MovieRow } from "./normalize.ts";

/** How long fetched details stay fresh (about 3 months). */
export const DETAIL_TTL_MS = 90 * 24 * 60 * 60 * 1000;

const COLUMNS = `catalog_id, title, original_title,
  to_char(release_date, 'YYYY-MM-DD') as release_date, year, poster_path, genre_ids, genres,
  overview, vote_average, vote_count, popularity, runtime, actors, directors, trailer_url,
  has_details, (extract(epoch from cached_at) * 1000)::float8 as cached_at`;

function toRow(r: Record<string, unknown>): MovieRow {
  return {
    catalog_id: Number(r.catalog_id),
    title: String(r.title),
    original_title: String(r.original_title),
    release_date: r.release_date === null ? null : String(r.release_date),
    year: Number(r.year),
    poster_path: String(r.poster_path),
    genre_ids: (r.genre_ids as unknown[]).map(Number),
    genres: (r.genres as unknown[]).map(String),
    overview: String(r.overview),
    vote_average: Number(r.vote_average),
    vote_count: Number(r.vote_count),
    popularity: Number(r.popularity),
    runtime: r.runtime === null ? null : Number(r.runtime),
    actors: r.actors === null ? null : (r.actors as unknown[]).map(String),
    directors: r.directors === null ? null : (r.directors as unknown[]).map(String),
    trailer_url: r.trailer_url === null ? null : String(r.trailer_url),
    has_details: Boolean(r.has_details),
    cached_at: Number(r.cached_at),
  };
}

/** Whether a stored row holds full details (a light row or one missing credits does not). */
export function isComplete(row: MovieRow): boolean {
  return row.has_details && row.actors !== null && row.directors !== null;
}

/** Whether a stored row can answer the detail route: complete and fetched within the TTL. */
export function isFreshComplete(row: MovieRow, now: number): boolean {
  return isComplete(row) && now - row.cached_at < DETAIL_TTL_MS;
}

/** The stored row of `id`, or null. */
export async function readMovie(sql: Sql, id: number): Promise<MovieRow | null> {
  const [row] = await sql.query(`select ${COLUMNS} from public.movies where catalog_id = $1`, [
    id,
  ]);
  return row ? toRow(row) : null;
}

/**
 * Ids one lookup statement takes: a history import asks about every film of its file, and on the
 * embedded store a statement holds the event loop until it ends (one lookup of a 20 MiB Trakt
 * export's 90,977 ids held it for 144 ms; a piece of 2,000 takes about 10 ms).
 */
const LOOKUP_IDS = 2_000;

/** The ids `look` returns for `ids`, asked `LOOKUP_IDS` at a time. */
async function lookUpInPieces(
  ids: number[],
  look: (piece: number[]) => Promise<{ catalog_id: number }[]>,
): Promise<number[]> {
  const found: number[] = [];
  for (let i = 0; i < ids.length; i += LOOKUP_IDS) {
    for (const r of await look(ids.slice(i, i + LOOKUP_IDS))) found.push(Number(r.catalog_id));
  }
  return found;
}

/** Of `ids`, those with fresh complete details stored. */
export async function freshIds(
  sql: Sql,
  ids: number[],
  options: { now: number },
): Promise<Set<number>> {
  const since = new Date(options.now - DETAIL_TTL_MS).toISOString();
  const fresh = await lookUpInPieces(ids, (piece) =>
    sql.query(
      `select catalog_id from public.movies
        where catalog_id = any($1::integer[]) and has_details
          and actors is not null and directors is not null and cached_at > $2`,
      [piece, since],
    ));
  return new Set(fresh);
}

/** Of `ids`, those with no row stored at all. */
export function missingIds(sql: Sql, ids: number[]): Promise<number[]> {
  return lookUpInPieces(ids, (piece) =>
    sql.query(
      // The stored ones are found through the key, not by hashing the whole table against the
      // piece (30-50 ms a piece with 90,000 movies stored, against 7-11 ms this way).
      `select u.c as catalog_id from unnest($1::integer[]) with ordinality as u(c, n)
         left join (select catalog_id from public.movies where catalog_id = any($1::integer[])) m
           on m.catalog_id = u.c
        where m.catalog_id is null
        order by u.n`,
      [piece],
    ));
}

/** Inserts or replaces the complete row of a fetched detail, with the append set it came with. */
export async function upsertDetail(sql: Sql, row: DetailRow): Promise<void> {
  await sql.query(
    `insert into public.movies (catalog_id, title, original_title, release_date, year,
       poster_path, genre_ids, genres, overview, vote_average, vote_count, popularity, runtime,
       actors, directors, trailer_url, has_details, cached_at, details_appends, release_dates,
       keywords, imdb_id, collection_id, collection_name, original_language)
     values ($1, $2, $3, $4::date, $5, $6, $7::integer[], $8::text[], $9, $10, $11, $12, $13,
       $14::text[], $15::text[], $16, true, $17, $18, $19::text::jsonb, $20::text[], $21, $22,
       $23, $24)
     on conflict (catalog_id) do update set
       title = excluded.title, original_title = excluded.original_title,
       release_date = excluded.release_date, year = excluded.year,
       poster_path = excluded.poster_path, genre_ids = excluded.genre_ids,
       genres = excluded.genres, overview = excluded.overview,
       vote_average = excluded.vote_average, vote_count = excluded.vote_count,
       popularity = excluded.popularity, runtime = excluded.runtime, actors = excluded.actors,
       directors = excluded.directors, trailer_url = excluded.trailer_url,
       has_details = true, cached_at = excluded.cached_at,
       details_appends = excluded.details_appends, release_dates = excluded.release_dates,
       keywords = excluded.keywords, imdb_id = excluded.imdb_id,
       collection_id = excluded.collection_id, collection_name = excluded.collection_name,
       original_language = excluded.original_language`,
    [
      row.catalog_id,
      row.title,
      row.original_title,
      row.release_date,
      row.year,
      row.poster_path,
      row.genre_ids,
      row.genres,
      row.overview,
      row.vote_average,
      row.vote_count,
      row.popularity,
      row.runtime,
      row.actors,
      row.directors,
      row.trailer_url,
      new Date(row.cached_at).toISOString(),
      row.details_appends,
      row.release_dates === null ? null : JSON.stringify(row.release_dates),
      row.keywords,
      row.imdb_id,
      row.collection_id,
      row.collection_name,
      row.original_language,
    ],
  );
}

/**
 * Inserts light rows (has_details false) or refreshes the list fields of existing ones.
 * runtime, actors, directors, trailer_url, has_details and cached_at are never written on
 * conflict, so a complete row stays complete; nor is a known poster, date, overview or the
 * detail's genres replaced by an empty or coarser value.
 */
export async function upsertLight(
  sql: Sql,
  rows: LightRow[],
  options: { now: number },
): Promise<void> {
  const { now } = options;
  if (rows.length === 0) return;
  // Later rows win when TMDB repeats an id within a page (it happens across pages).
  const unique = [...new Map(rows.map((r) => [r.catalog_id, r])).values()];
  await sql.query(
    `insert into public.movies as m (catalog_id, title, original_title, release_date, year,
       poster_path, genre_ids, genres, overview, vote_average, vote_count, popularity,
       has_details, cached_at, original_language)
     select r.catalog_id, r.title, r.original_title, r.release_date::date, r.year,
            r.poster_path, r.genre_ids, r.genres, r.overview, r.vote_average, r.vote_count,
            r.popularity, false, $2::timestamptz, r.original_language
       from jsonb_to_recordset($1::text::jsonb) as r(catalog_id integer, title text,
            original_title text, release_date text, year integer, poster_path text,
            genre_ids integer[], genres text[], overview text, vote_average double precision,
            vote_count integer, popularity double precision, original_language text)
     on conflict (catalog_id) do update set
       title = excluded.title, original_title = excluded.original_title,
       release_date = coalesce(excluded.release_date, m.release_date),
       year = case when excluded.year = 0 then m.year else excluded.year end,
       poster_path = case when excluded.poster_path = '' then m.poster_path
                          else excluded.poster_path end,
       genre_ids = case when m.has_details then m.genre_ids else excluded.genre_ids end,
       genres = case when m.has_details then m.genres else excluded.genres end,
       overview = case when m.overview = '' then excluded.overview else m.overview end,
       vote_average = excluded.vote_average, vote_count = excluded.vote_count,
       popularity = excluded.popularity,
       original_language = coalesce(excluded.original_language, m.original_language)`,
    [JSON.stringify(unique), new Date(now).toISOString()],
  );
}
