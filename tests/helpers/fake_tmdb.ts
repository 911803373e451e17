/**
 * A fake TMDB v3 API on 127.0.0.1, built from the real responses in tests/fixtures/tmdb
 * (SOURCES.md there says where each came from). It serves the three paths the service may
 * call (`/search/movie`, `/movie/popular`, `/movie/{id}`), answers anything else with TMDB's
 * real 404 body, records every request, and lets a test change what it serves.
 *
 * Like TMDB, it answers 401 (code 7) when a request carries neither `api_key` nor an
 * `Authorization` header, appends `credits`/`videos`/`watch/providers`/`release_dates`/`keywords`/
 * `external_ids` to a detail only when `append_to_response` asks for them, and refuses a popular page outside 1-500 with 400
 * (code 22).
 */
import searchFixture from "../fixtures/tmdb/tmdb-search-movie.json" with { type: "json" };
import popularFixture from "../fixtures/tmdb/tmdb-movie-popular.json" with { type: "json" };
import detailFixture from "../fixtures/tmdb/tmdb-movie-details-append-credits-videos.json" with {
  type: "json",
};
import watchProvidersFixture from "../fixtures/tmdb/tmdb-movie-watch-providers.json" with {
  type: "json",
};
import releaseDatesFixture from "../fixtures/tmdb/tmdb-movie-release-dates.json" with {
  type: "json",
};
import keywordsFixture from "../fixtures/tmdb/tmdb-movie-keywords.json" with { type: "json" };
import notFoundFixture from "../fixtures/tmdb/tmdb-error-404-not-found.json" with {
  type: "json",
};
import invalidKeyFixture from "../fixtures/tmdb/tmdb-error-401-invalid-api-key.json" with {
  type: "json",
};
import { MOVIE_GENRES } from "@/lib/catalog/genres.ts";
import { abortable } from "./abortable.ts";

/** A request the fake received. */
interface FakeTmdbRequest {
  /** The path below the base URL, e.g. `/movie/550` (no `/3`). */
  path: string;
  query: URLSearchParams;
  authorization: string | null;
  /** performance.now() at arrival. */
  at: number;
}

/** A running fake TMDB. */
export interface FakeTmdb extends AsyncDisposable {
  /** Ends in /3; pass as TMDB_BASE_URL. */
  baseUrl: string;
  requests: FakeTmdbRequest[];
  /** Detail bodies (with every append the service may ask for) by id; tests add/override. */
  movies: Map<number, Record<string, unknown>>;
  /** Popular pages: page number → body. */
  popular: Map<number, Record<string, unknown>>;
  /** Search answer for a query (default: the fixture, with the asked page). */
  search: (query: URLSearchParams) => Record<string, unknown>;
  /** A test hook answering before the defaults; return undefined to fall through. */
  override?: (req: FakeTmdbRequest) => Response | undefined | Promise<Response | undefined>;
  /** Added to every answer. */
  latencyMs: number;
  close(): Promise<void>;
}

/** Options of the fake. */
interface FakeTmdbOptions {
  latencyMs?: number;
  /** Popular pages served (default 3), 20 movies each with distinct ids. */
  popularPages?: number;
}

/** TMDB's watch/providers answer for movie 550 (the official example; 95 regions). */
export const WATCH_PROVIDERS_FIXTURE: { id: number; results: Record<string, unknown> } =
  watchProvidersFixture;

/** The rows of TMDB's 404 body, its 401 body and its "Invalid page" 400 body. */
export const TMDB_NOT_FOUND: Record<string, unknown> = notFoundFixture;
const TMDB_INVALID_KEY: Record<string, unknown> = invalidKeyFixture;
const INVALID_PAGE = {
  success: false,
  status_code: 22,
  status_message:
    "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.",
};

/** The 20 rows of the popular fixture (page 1 of the feed). */
export const POPULAR_FIXTURE_ROWS: readonly Record<string, unknown>[] = popularFixture.results;

/** The search fixture ("Fight Club" search, 20 rows: some without poster or release date). */
export function searchBody(page = 1): Record<string, unknown> {
  return { ...structuredClone(searchFixture), page };
}

/**
 * A detail body for `id` built from tmdb-movie-details-append-credits-videos.json (with its
 * recorded `external_ids`), with tmdb-movie-watch-providers.json's `results` appended as
 * `watch/providers`, tmdb-movie-release-dates.json and tmdb-movie-keywords.json as
 * `release_dates` and `keywords` (appended, TMDB's answers lose their `id`), and overrides.
 */
export function detailBody(
  id: number,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const base: Record<string, unknown> = structuredClone(detailFixture);
  // Appended, TMDB's watch/providers answer loses its id and keeps `results` (per region).
  base["watch/providers"] = { results: structuredClone(watchProvidersFixture.results) };
  base.release_dates = { results: structuredClone(releaseDatesFixture.results) };
  base.keywords = { keywords: structuredClone(keywordsFixture.keywords) };
  return { ...base, id, ...overrides };
}

/** The id of row `index` of popular page `page`: page 1 keeps the fixture's ids, later pages get distinct ones. */
export function popularId(page: number, index: number): number {
  const row = popularFixture.results[index % popularFixture.results.length];
  return page === 1 ? row.id : 100_000_000 + page * 100 + index;
}

/** Popular page `page` of `pages`: the fixture rows, with ids (and, after page 1, titles) made distinct. */
export function popularBody(page: number, pages: number): Record<string, unknown> {
  const results = popularFixture.results.map((row, index) => {
    const copy: Record<string, unknown> = structuredClone(row);
    copy.id = popularId(page, index);
    if (page !== 1) {
      // Distinct titles too, so title lookups (recommendations) never match two ids.
      copy.title = `${row.title} #${page}`;
      copy.original_title = `${row.original_title} #${page}`;
    }
    return copy;
  });
  return { page, results, total_pages: pages, total_results: pages * results.length };
}

/** The detail body TMDB would give for a list row (search or popular). */
function detailFromRow(row: Record<string, unknown>): Record<string, unknown> {
  const genreIds = (row.genre_ids as number[] | undefined) ?? [];
  return detailBody(row.id as number, {
    title: row.title,
    original_title: row.original_title,
    original_language: row.original_language,
    overview: row.overview,
    poster_path: row.poster_path,
    backdrop_path: row.backdrop_path,
    release_date: row.release_date,
    vote_average: row.vote_average,
    vote_count: row.vote_count,
    popularity: row.popularity,
    genres: genreIds.flatMap((g) =>
      MOVIE_GENRES.has(g) ? [{ id: g, name: MOVIE_GENRES.get(g) }] : []
    ),
  });
}

/** Answers a request with the fake's defaults. */
function answer(fake: FakeTmdb, req: FakeTmdbRequest): Response {
  if (!req.query.get("api_key") && !req.authorization) {
    return Response.json(TMDB_INVALID_KEY, { status: 401 });
  }
  if (req.path === "/search/movie") {
    return Response.json(fake.search(req.query));
  }
  if (req.path === "/movie/popular") {
    const raw = req.query.get("page") ?? "1";
    const page = Number(raw);
    if (!/^\d+$/.test(raw) || page < 1 || page > 500) {
      return Response.json(INVALID_PAGE, { status: 400 });
    }
    const pages = fake.popular.size;
    const body = fake.popular.get(page) ??
      { page, results: [], total_pages: pages, total_results: pages * 20 };
    return Response.json(body);
  }
  const match = /^\/movie\/(\d+)$/.exec(req.path);
  const movie = match ? fake.movies.get(Number(match[1])) : undefined;
  if (!movie) return Response.json(TMDB_NOT_FOUND, { status: 404 });
  const append = new Set((req.query.get("append_to_response") ?? "").split(","));
  const body = structuredClone(movie);
  const appends = [
    "credits",
    "videos",
    "watch/providers",
    "release_dates",
    "keywords",
    "external_ids",
  ];
  for (const key of appends) {
    if (!append.has(key)) delete body[key];
  }
  return Response.json(body);
}

/** Starts a fake TMDB; dispose it with `await using`. */
export function startFakeTmdb(options: FakeTmdbOptions = {}): Promise<FakeTmdb> {
  const pages = options.popularPages ?? 3;
  const movies = new Map<number, Record<string, unknown>>();
  const popular = new Map<number, Record<string, unknown>>();
  for (const row of searchFixture.results) movies.set(row.id, detailFromRow(row));
  for (let page = 1; page <= pages; page++) {
    const body = popularBody(page, pages);
    popular.set(page, body);
    for (const row of body.results as Record<string, unknown>[]) {
      movies.set(row.id as number, detailFromRow(row));
    }
  }
  movies.set(detailFixture.id, detailBody(detailFixture.id));

  // Closing ends pending latencies, so a test never waits for an answer nobody reads.
  const closing = new AbortController();
  let closed: Promise<void> | undefined;
  const close = () => {
    closing.abort();
    return closed ??= server.shutdown();
  };
  const fake: FakeTmdb = {
    baseUrl: "",
    requests: [],
    movies,
    popular,
    search: (query) => searchBody(Number(query.get("page") ?? "1") || 1),
    latencyMs: options.latencyMs ?? 0,
    close,
    [Symbol.asyncDispose]: close,
  };
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    async (request) => {
      const url = new URL(request.url);
      const req: FakeTmdbRequest = {
        path: url.pathname.replace(/^\/3(?=\/|$)/, ""),
        query: url.searchParams,
        authorization: request.headers.get("authorization"),
        at: performance.now(),
      };
      fake.requests.push(req);
      await abortable(fake.latencyMs, closing.signal);
      const custom = fake.override ? await fake.override(req) : undefined;
      if (custom) return custom;
      if (request.method !== "GET" || !url.pathname.startsWith("/3/")) {
        return Response.json(TMDB_NOT_FOUND, { status: 404 });
      }
      return answer(fake, req);
    },
  );
  fake.baseUrl = `http://127.0.0.1:${server.addr.port}/3`;
  return Promise.resolve(fake);
}

/** The TMDB_* variables pointing the app at `fake` with a v3 key (or a v4 token with `bearer`). */
export function tmdbEnv(
  fake: { baseUrl: string },
  options: { bearer?: boolean } = {},
): Record<string, string> {
  return options.bearer
    ? { TMDB_BASE_URL: fake.baseUrl, TMDB_READ_ACCESS_TOKEN: "test-read-access-token" }
    : { TMDB_BASE_URL: fake.baseUrl, TMDB_API_KEY: "test-api-key" };
}
