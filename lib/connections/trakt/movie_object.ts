/**
 * Trakt's movie object as every /trakt answer carries it (docs/trakt.md, "Reads"): the catalog
 * id is both the trakt and the tmdb id, the slug is `title-year`, and `extended=full` adds the
 * stored details.
 */

/**
 * The movies columns a movie object needs, for a select that left-joins `public.movies` as `m`
 * (the release day as text, so both stores answer it alike).
 */
export const TRAKT_MOVIE_COLUMNS = "m.title, m.year, m.imdb_id, m.overview, " +
  "to_char(m.release_date, 'YYYY-MM-DD') as release_date, m.runtime, m.vote_average, " +
  "m.vote_count, m.genres, m.release_dates";

/**
 * The columns a read needs: all of TRAKT_MOVIE_COLUMNS for `extended=full`, else only the
 * three the short object shows (a long read decodes a third of the values).
 */
export function traktMovieColumns(full: boolean | undefined): string {
  return full ? TRAKT_MOVIE_COLUMNS : "m.title, m.year, m.imdb_id";
}

/**
 * A catalog id with its movies row as TRAKT_MOVIE_COLUMNS selects it; every column is null
 * when the film has no row yet (a left join), so the answer still names the film by its ids.
 */
export interface TraktMovieRow {
  catalog_id: number;
  title: string | null;
  year: number | null;
  imdb_id: string | null;
  // Only read for `extended=full` (traktMovieColumns).
  overview?: string | null;
  release_date?: string | Date | null;
  runtime?: number | null;
  vote_average?: number | null;
  vote_count?: number | null;
  genres?: string[] | null;
  release_dates?: unknown;
}

/** `{"title","year","ids":{"trakt","slug","imdb","tmdb"}}`. */
interface TraktMovie {
  title: string | null;
  year: number | null;
  ids: { trakt: number; slug: string; imdb: string | null; tmdb: number };
  [extended: string]: unknown;
}

/** Trakt's default region for a certification, as its own answers give the US rating. */
const CERTIFICATION_REGION = "US";

/** A lower-case dash-separated form of a text: letters and digits of any script kept. */
function dashed(text: string): string {
  // Most titles are plain ASCII: the Unicode steps are skipped for them (a long read's slugs).
  if (/^[\x20-\x7e]*$/.test(text)) {
    return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  }
  return text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "");
}

/**
 * The slug of a film: `title-year` in lower case with dashes ("the-dark-knight-2008"); a film
 * without a title is its catalog id, one without a year its title alone.
 */
export function traktSlug(catalogId: number, title: string | null, year: number | null): string {
  const name = dashed(title ?? "");
  if (name === "") return String(catalogId);
  return year && year > 0 ? `${name}-${year}` : name;
}

function isoDay(value: string | Date | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return value.slice(0, 10);
}

/** The US certification of the stored release dates (the first non-empty, by type), or null. */
function certificationOf(releaseDates: unknown): string | null {
  const dates = typeof releaseDates === "string" ? JSON.parse(releaseDates) : releaseDates;
  if (!dates || typeof dates !== "object") return null;
  const region = (dates as Record<string, unknown>)[CERTIFICATION_REGION];
  if (!Array.isArray(region)) return null;
  for (const release of region) {
    const c = (release as { certification?: unknown })?.certification;
    if (typeof c === "string" && c !== "") return c;
  }
  return null;
}

/**
 * The movie object of a stored row; `full` adds `extended=full`'s fields: tagline, country and
 * language are not stored, so they are null, as Trakt answers for a film it lacks them for.
 */
export function traktMovie(row: TraktMovieRow, options: { full?: boolean } = {}): TraktMovie {
  const title = row.title === null || row.title === "" ? null : row.title;
  const year = row.year && row.year > 0 ? row.year : null;
  const movie: TraktMovie = {
    title,
    year,
    ids: {
      trakt: row.catalog_id,
      slug: traktSlug(row.catalog_id, title, year),
      imdb: row.imdb_id ?? null,
      tmdb: row.catalog_id,
    },
  };
  if (!options.full) return movie;
  return {
    ...movie,
    tagline: null,
    overview: row.overview || null,
    released: isoDay(row.release_date),
    runtime: row.runtime ?? null,
    country: null,
    rating: row.vote_average ?? 0,
    votes: row.vote_count ?? 0,
    language: null,
    genres: (row.genres ?? []).map(dashed).filter((g) => g !== ""),
    certification: certificationOf(row.release_dates),
  };
}
