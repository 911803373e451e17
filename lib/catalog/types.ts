/**
 * The catalog's shapes and service interface (the OpenAPI document's MovieDetail and SearchRow;
 * docs/api.md and docs/catalog.md). The routes, the lists prefetch, the recommendation search
 * fallback, the import and the website all call the catalog through `MovieSource`.
 */
import type { WatchProviders } from "./providers.ts";

export type { WatchProvider, WatchProviders } from "./providers.ts";

/** A row of GET /api/movies/search and of the popular feed: exactly these seven fields. */
export interface SearchRow {
  id: number;
  title: string;
  original_title: string;
  poster_path: string;
  release_date: string;
  vote_average: number;
  genre_ids: number[];
}

/** The body of GET /api/movies/:id. */
export interface MovieDetail {
  id: number;
  title: string;
  poster: string;
  rating: number;
  year: number;
  duration: string;
  runtime: number | null;
  genres: string[];
  actors: string[];
  directors: string[];
  description: string;
  trailer: string | null;
}

/**
 * A page of search rows and how many pages TMDB has (at most 500). The API answers only
 * `results` (docs/catalog.md); the website pages on with `totalPages`.
 */
interface SearchPage {
  results: SearchRow[];
  totalPages: number;
  /** The page's rows the API drops (no poster, date or rating), for the website to show last. */
  unlisted: UnlistedRow[];
}

/**
 * A search row with no poster, no release date or no rating: interface.md drops it from
 * `results`; the website lists it after the rest, marked (docs/website.md).
 */
export interface UnlistedRow {
  id: number;
  title: string;
  original_title: string;
  poster_path: string | null;
  release_date: string | null;
  vote_average: number | null;
  genre_ids: number[];
}

/** One page of the popular feed (GET /api/movies/popular). */
export interface PopularPage {
  page: number;
  totalPages: number;
  results: SearchRow[];
}

/** X-RateLimit-Limit, -Remaining and -Reset of the shared external window. */
export type RateLimitHeaders = Record<string, string>;

/** A catalog answer with the window's headers, which the routes copy onto the response. */
export interface WithRateLimit<T> {
  value: T;
  headers: RateLimitHeaders;
}

/** Counts of one import step, so the import can record its progress. */
export interface DetailsOutcome {
  fetched: number;
  failed: { id: number; error: string }[];
}

/** What the rest of the service asks of the external movie database and the movies store. */
export interface MovieSource {
  /**
   * Searches movies. `wait: false` (the search route) answers 429 `rate_limited` at once when
   * the shared window is full; `wait: true` (recommendations) waits for the next window.
   * `background` (imports, their prefetch) keeps to half of each window.
   */
  search(
    query: string,
    options?: { year?: number; page?: number; wait?: boolean; background?: boolean },
  ): Promise<WithRateLimit<SearchPage>>;
  /**
   * A page (1-500) of the popular feed, cached 6 h per page in KV (`skipCache`: read from TMDB);
   * rows are stored as light rows. A page fetched from TMDB also says which ids it listed, the
   * filtered ones included.
   */
  popular(
    page: number,
    options?: { skipCache?: boolean; background?: boolean },
  ): Promise<WithRateLimit<PopularPage> & { listedIds?: number[] }>;
  /** A movie's detail: the stored row when fresh and complete, else fetched, upserted and returned. */
  movie(id: number): Promise<WithRateLimit<MovieDetail>>;
  /** The detail of `id` when the in-process cache and the window's headers answer at once. */
  hotMovie(id: number): WithRateLimit<MovieDetail> | undefined;
  /** Fetches and stores details of `ids` that are missing or stale, in the background of a list write. */
  prefetch(ids: number[], options?: { background?: boolean }): Promise<DetailsOutcome>;
  /** Of `ids`, those whose stored details are missing, incomplete or older than 90 days. */
  staleIds(ids: number[]): Promise<number[]>;
}

/** The catalog as the app holds it (`services.catalog`): the service plus the window's headers. */
export interface Catalog extends MovieSource {
  /** Where `id` can be watched in `region`; refetched through the window after 7 days. */
  providers(id: number, region: string): Promise<WithRateLimit<WatchProviders>>;
  /**
   * Fetches the movie again (details and providers, one call through the window) whatever the
   * age of what is stored: the availability job (lib/catalog/availability).
   */
  refreshMovie(id: number): Promise<void>;
  /**
   * The shared window's X-RateLimit-* headers now, taking no place in it (cached answers);
   * `fresh` reads the shared count even when this instance looked under 250 ms ago.
   */
  rateLimitHeaders(options?: { fresh?: boolean }): Promise<RateLimitHeaders>;
}
