/**
 * TMDB bodies to the service's shapes (docs/catalog.md): a detail body to a stored movies
 * row, a stored row to the detail response, a list row to a search row or a light row, a search
 * row to a light row.
 */
import { genreNames } from "./genres.ts";
import { imdbIdOf, keywordsOf, releasesOf, type StoredReleases } from "./release_dates.ts";
import { DETAIL_APPENDS } from "./tmdb_client.ts";
import type { TmdbCast, TmdbCrew, TmdbListRow, TmdbMovie, TmdbVideo } from "./tmdb_schemas.ts";
import type { MovieDetail, SearchRow, UnlistedRow } from "./types.ts";

/** The actors a detail lists. */
const ACTORS_SHOWN = 5;

/** A row of `movies` as the catalog reads and writes it. */
export interface MovieRow {
  catalog_id: number;
  title: string;
  original_title: string;
  /** YYYY-MM-DD, or null when TMDB has none. */
  release_date: string | null;
  year: number;
  poster_path: string;
  genre_ids: number[];
  genres: string[];
  overview: string;
  vote_average: number;
  vote_count: number;
  popularity: number;
  runtime: number | null;
  actors: string[] | null;
  directors: string[] | null;
  trailer_url: string | null;
  has_details: boolean;
  /** Epoch milliseconds the details were fetched. */
  cached_at: number;
}

/** A fetched detail as stored: the row and what the fetch appended beyond credits and videos. */
export interface DetailRow extends MovieRow {
  /** The append set the details were fetched with (tmdb_client.ts DETAIL_APPENDS). */
  details_appends: string;
  release_dates: StoredReleases | null;
  keywords: string[] | null;
  imdb_id: string | null;
  /** TMDB's belongs_to_collection, or null (the local recommender's features). */
  collection_id: number | null;
  collection_name: string | null;
  /** ISO 639-1, or null when TMDB gives none. */
  original_language: string | null;
}

/** The fields a popular row gives (no detail fields). */
export type LightRow =
  & Pick<
    MovieRow,
    | "catalog_id"
    | "title"
    | "original_title"
    | "release_date"
    | "year"
    | "poster_path"
    | "genre_ids"
    | "genres"
    | "overview"
    | "vote_average"
    | "vote_count"
    | "popularity"
  >
  & {
    /** ISO 639-1 when the list row gives it (a recommender's search row may not). */
    original_language?: string | null;
  };

const DATE = /^(\d{4})-\d{2}-\d{2}$/;

/** The year of a YYYY-MM-DD date; 0 when absent or malformed. */
export function yearOf(releaseDate: string | null | undefined): number {
  const match = DATE.exec(releaseDate ?? "");
  return match ? Number(match[1]) : 0;
}

/** `vote_average` rounded to one decimal. */
export function roundRating(voteAverage: number): number {
  return Math.round(voteAverage * 10) / 10;
}

/** `"<h>h <m>m"`, or `"N/A"` when the runtime is unknown (null or 0). */
export function formatDuration(runtime: number | null): string {
  if (!runtime || runtime <= 0) return "N/A";
  return `${Math.floor(runtime / 60)}h ${runtime % 60}m`;
}

/** The poster's w500 URL, or "" without a poster. */
function detailPosterUrl(imageBaseUrl: string, posterPath: string | null): string {
  return posterPath ? `${imageBaseUrl}/w500${posterPath}` : "";
}

/** The first `ACTORS_SHOWN` cast names by `order` (cast without an order come last). */
function topActors(cast: readonly TmdbCast[]): string[] {
  return cast
    .map((member, index) => ({ member, index }))
    .sort((a, b) =>
      (a.member.order ?? Infinity) - (b.member.order ?? Infinity) || a.index - b.index
    )
    .slice(0, ACTORS_SHOWN)
    .map(({ member }) => member.name);
}

/** The names of the crew whose job is Director, once each, in credit order. */
function directorsOf(crew: readonly TmdbCrew[]): string[] {
  return [...new Set(crew.filter((c) => c.job === "Director").map((c) => c.name))];
}

/** The YouTube link of the most recently published official YouTube Trailer, else null. */
export function pickTrailer(videos: readonly TmdbVideo[]): string | null {
  let best: { at: number; key: string } | null = null;
  for (const v of videos) {
    if (v.type !== "Trailer" || v.official !== true || v.site !== "YouTube" || !v.key) continue;
    const parsed = Date.parse(v.published_at ?? "");
    const at = Number.isNaN(parsed) ? -Infinity : parsed;
    if (!best || at > best.at) best = { at, key: v.key };
  }
  return best ? `https://www.youtube.com/watch?v=${encodeURIComponent(best.key)}` : null;
}

function releaseDate(raw: string): string | null {
  return DATE.test(raw) ? raw : null;
}

/** The stored row of a detail body (complete: has_details true). */
export function detailRow(movie: TmdbMovie, cachedAt: number): DetailRow {
  const runtime = movie.runtime && movie.runtime > 0 ? movie.runtime : null;
  return {
    catalog_id: movie.id,
    title: movie.title,
    original_title: movie.original_title,
    release_date: releaseDate(movie.release_date),
    year: yearOf(movie.release_date),
    poster_path: movie.poster_path,
    genre_ids: movie.genres.map((g) => g.id),
    genres: movie.genres.map((g) => g.name),
    overview: movie.overview,
    vote_average: movie.vote_average,
    vote_count: movie.vote_count,
    popularity: movie.popularity,
    runtime,
    actors: topActors(movie.credits.cast),
    directors: directorsOf(movie.credits.crew),
    trailer_url: pickTrailer(movie.videos.results),
    has_details: true,
    cached_at: cachedAt,
    details_appends: DETAIL_APPENDS,
    release_dates: releasesOf(movie),
    keywords: keywordsOf(movie),
    imdb_id: imdbIdOf(movie),
    collection_id: movie.belongs_to_collection?.id ?? null,
    collection_name: movie.belongs_to_collection?.name || null,
    original_language: movie.original_language || null,
  };
}

/** The light row of a search or popular row: list fields only, genres named from the fixed list. */
export function lightRow(row: TmdbListRow): LightRow {
  return {
    catalog_id: row.id,
    title: row.title,
    original_title: row.original_title,
    release_date: releaseDate(row.release_date),
    year: yearOf(row.release_date),
    poster_path: row.poster_path,
    genre_ids: row.genre_ids,
    genres: genreNames(row.genre_ids),
    overview: row.overview,
    vote_average: row.vote_average,
    vote_count: row.vote_count,
    popularity: row.popularity,
    original_language: row.original_language || null,
  };
}

/** A catalog search row as `searchLightRow` reads it: the recommender's hits may lack fields. */
export interface SearchRowFields {
  id: number;
  title: string;
  original_title?: string;
  release_date?: string;
  poster_path?: string;
  vote_average?: number;
  genre_ids?: number[];
}

/**
 * The light row of a search row, by a list row's date rule (a date that is not YYYY-MM-DD is
 * null and gives year 0), so the year stored is the year title matching read (`rowYear`). A
 * search row carries no overview, vote count or popularity: those are empty.
 */
export function searchLightRow(row: SearchRowFields): LightRow {
  const genreIds = row.genre_ids ?? [];
  return {
    catalog_id: row.id,
    title: row.title,
    original_title: row.original_title ?? row.title,
    release_date: releaseDate(row.release_date ?? ""),
    year: yearOf(row.release_date),
    poster_path: row.poster_path ?? "",
    genre_ids: genreIds,
    genres: genreNames(genreIds),
    overview: "",
    vote_average: row.vote_average ?? 0,
    vote_count: 0,
    popularity: 0,
  };
}

/** The detail response of a stored row. */
export function toMovieDetail(row: MovieRow, imageBaseUrl: string): MovieDetail {
  const runtime = row.runtime && row.runtime > 0 ? row.runtime : null;
  return {
    id: row.catalog_id,
    title: row.title,
    poster: detailPosterUrl(imageBaseUrl, row.poster_path),
    rating: roundRating(row.vote_average),
    year: row.year,
    duration: formatDuration(runtime),
    runtime,
    genres: row.genres,
    actors: row.actors ?? [],
    directors: row.directors ?? [],
    description: row.overview,
    trailer: row.trailer_url,
  };
}

/** The unlisted row of a list row `toSearchRow` drops, or null when it is a search row. */
export function toUnlistedRow(row: TmdbListRow): UnlistedRow | null {
  if (toSearchRow(row)) return null;
  return {
    id: row.id,
    title: row.title,
    original_title: row.original_title,
    poster_path: row.poster_path || null,
    release_date: releaseDate(row.release_date),
    vote_average: row.vote_average || null,
    genre_ids: row.genre_ids,
  };
}

/**
 * The search row of a list row, or null when it has no poster, no release date, or a
 * vote_average of 0 (docs/catalog.md: those rows are dropped). Exactly the seven fields.
 */
export function toSearchRow(row: TmdbListRow): SearchRow | null {
  if (!row.poster_path || !releaseDate(row.release_date) || !row.vote_average) return null;
  return {
    id: row.id,
    title: row.title,
    original_title: row.original_title,
    poster_path: row.poster_path,
    release_date: row.release_date,
    vote_average: row.vote_average,
    genre_ids: row.genre_ids,
  };
}
