/**
 * Finding films the Trakt way (docs/trakt.md, "Reads"): by id (`trakt` and `tmdb` are the
 * catalog id, `imdb` the stored IMDb id), by slug for `GET /movies/:id`, and the movie objects
 * of a text search's rows. Only stored films are found by id or slug.
 */
import type { SearchRow } from "@/lib/catalog/types.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";
import { TRAKT_MOVIE_COLUMNS, traktMovie, type TraktMovieRow, traktSlug } from "./movie_object.ts";

type Full = { full?: boolean };

/** The id kinds `GET /search/:id_type/:id` looks films up by. */
export type TraktIdType = "trakt" | "tmdb" | "imdb";

const IMDB_ID = /^tt\d{1,12}$/;
const CATALOG_ID = /^\d{1,10}$/;
const MAX_CATALOG_ID = 2 ** 31 - 1;

function catalogIdOf(raw: string): number | null {
  if (!CATALOG_ID.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= MAX_CATALOG_ID ? id : null;
}

async function storedBy(sql: Sql, where: string, value: unknown): Promise<TraktMovieRow[]> {
  return await sql.query<TraktMovieRow>(
    `select m.catalog_id, ${TRAKT_MOVIE_COLUMNS} from public.movies m where ${where}
      order by m.catalog_id`,
    [value],
  );
}

/** The stored films an id names (none when it is malformed or unknown). */
export async function findByTraktId(
  sql: Sql,
  type: TraktIdType,
  id: string,
): Promise<TraktMovieRow[]> {
  if (type === "imdb") return IMDB_ID.test(id) ? await storedBy(sql, "m.imdb_id = $1", id) : [];
  const catalogId = catalogIdOf(id);
  return catalogId === null ? [] : await storedBy(sql, "m.catalog_id = $1::int", catalogId);
}

/**
 * The stored film `GET /movies/:id` names: a trakt (catalog) id, an IMDb id or a slug
 * (`title-year`: the films of that year whose own slug is it; the lowest catalog id first).
 */
export async function findMovie(sql: Sql, id: string): Promise<TraktMovieRow | null> {
  if (CATALOG_ID.test(id)) return (await findByTraktId(sql, "trakt", id))[0] ?? null;
  if (IMDB_ID.test(id)) return (await findByTraktId(sql, "imdb", id))[0] ?? null;
  const slug = id.toLowerCase();
  const year = /-(\d{4})$/.exec(slug);
  // By year when the slug ends in one; else by its words in order (a film without a year).
  const rows = year ? await storedBy(sql, "m.year = $1::int", Number(year[1])) : await storedBy(
    sql,
    "m.year = 0 and lower(m.title) like $1",
    `%${slug.split("-").map((w) => w.replace(/[\\%_]/g, "\\$&")).join("%")}%`,
  );
  return rows.find((r) => traktSlug(r.catalog_id, r.title, r.year) === slug) ?? null;
}

/**
 * The search results of a text search's rows, in their order: each row's stored film when there
 * is one (for its IMDb id and details), else the row itself. `score` is the place in the search's
 * order: 1,000 for the first, 10 less for each next (at least 1).
 */
export async function searchResults(sql: Sql, rows: SearchRow[], options: Full = {}) {
  const stored = rows.length === 0 ? [] : await storedBy(
    sql,
    "m.catalog_id = any ($1::int[])",
    rows.map((r) => r.id),
  );
  const byId = new Map(stored.map((r) => [r.catalog_id, r]));
  return rows.map((row, i) => {
    const year = Number(row.release_date.slice(0, 4)) || null;
    const movie = byId.get(row.id) ?? {
      catalog_id: row.id,
      title: row.title,
      year,
      imdb_id: null,
      overview: null,
      release_date: row.release_date || null,
      runtime: null,
      vote_average: row.vote_average,
      vote_count: null,
      genres: null,
      release_dates: null,
    };
    return { type: "movie", score: Math.max(1, 1000 - 10 * i), movie: traktMovie(movie, options) };
  });
}

/** The results of an id search: every film found, score 1,000 (an exact match). */
export function idResults(rows: TraktMovieRow[], options: Full = {}) {
  return rows.map((row) => ({ type: "movie", score: 1000, movie: traktMovie(row, options) }));
}
