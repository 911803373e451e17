/**
 * The only code that talks to TMDB (docs/catalog.md). Exactly three paths may leave the
 * server; any other is refused before a request is made. Every call takes a place in the
 * shared external window first, carries the credentials (v3 key as `api_key`, or v4 token as
 * `Authorization: Bearer`), has a 10 s timeout, goes through `deps.fetch`, and maps what
 * comes back to a `Problem` when it is not the expected body.
 */
import type { z } from "zod";
import type { AppDeps } from "../platform/deps.ts";
import { type ExternalWindow, reopenAfter429, type WindowHeaders } from "./external_window.ts";
import { Problem } from "../core/problem.ts";
import { type TmdbList, tmdbList, type TmdbMovie, tmdbMovie } from "./tmdb_schemas.ts";

/** The default timeout of one call. */
const TMDB_TIMEOUT_MS = 10_000;

/** A TMDB answer with the shared window's headers after its place was taken. */
interface TmdbAnswer<T> {
  value: T;
  headers: WindowHeaders;
}

/** The three calls the service makes. */
interface TmdbClient {
  search(
    query: string,
    options: { year?: number; page?: number } & WindowPlace,
  ): Promise<TmdbAnswer<TmdbList>>;
  popular(page: number, options: WindowPlace): Promise<TmdbAnswer<TmdbList>>;
  movie(id: number, options: WindowPlace): Promise<TmdbAnswer<TmdbMovie>>;
  /** A GET of `path` with `params`, refused unless it is one of the three allowed calls. */
  request<S extends z.ZodType>(
    path: string,
    params: Record<string, string>,
    options: { schema: S } & WindowPlace,
  ): Promise<TmdbAnswer<z.output<S>>>;
}

/** How a call takes its place in the window: waiting or not, and as background work or not. */
interface WindowPlace {
  wait: boolean;
  /** Background work (imports, their prefetch) takes at most half of each window. */
  background?: boolean;
}

/** A path or parameter outside the allowed calls; thrown before any request. */
export class RefusedPathError extends Error {
  constructor(path: string) {
    super(`refused external path ${JSON.stringify(path)}: not one of the three allowed calls`);
    this.name = "RefusedPathError";
  }
}

// Each allowed path with the query parameters it may carry.
const ALLOWED: { pattern: RegExp; params: ReadonlySet<string> }[] = [
  {
    pattern: /^\/search\/movie$/,
    params: new Set(["query", "page", "include_adult", "year"]),
  },
  { pattern: /^\/movie\/popular$/, params: new Set(["page"]) },
  { pattern: /^\/movie\/[1-9]\d{0,9}$/, params: new Set(["append_to_response"]) },
];

/** The URL of an allowed call below `baseUrl`; throws `RefusedPathError` for anything else. */
export function tmdbUrl(baseUrl: string, path: string, params: Record<string, string>): URL {
  const rule = ALLOWED.find((r) => r.pattern.test(path));
  if (!rule || Object.keys(params).some((name) => !rule.params.has(name))) {
    throw new RefusedPathError(path);
  }
  // An append is a call of its own at TMDB's end: only the detail's own appends go out.
  if ("append_to_response" in params && params.append_to_response !== DETAIL_APPENDS) {
    throw new RefusedPathError(`${path}?append_to_response=${params.append_to_response}`);
  }
  const url = new URL(baseUrl.replace(/\/+$/, "") + path);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url;
}

/**
 * What a detail fetch appends (docs/catalog.md): still the one movie-by-id call. Each movie
 * keeps the set it was fetched with, and the details job fetches again every film of a user's
 * fetched with another, so adding an append here backfills them by itself.
 */
export const DETAIL_APPENDS = "credits,videos,watch/providers,release_dates,keywords,external_ids";

// After this many upstream 429s in a row a waiting caller gives up.
const MAX_UPSTREAM_429 = 3;

/** Builds the client over `deps.fetch`, the configured credentials and the shared window. */
export function createTmdbClient(
  deps: Pick<AppDeps, "config" | "fetch" | "clock">,
  options: { window: ExternalWindow; timeoutMs?: number },
): TmdbClient {
  const { apiKey, readAccessToken, baseUrl } = deps.config.tmdb;
  const timeoutMs = options.timeoutMs ?? TMDB_TIMEOUT_MS;
  const { window } = options;

  async function request<S extends z.ZodType>(
    path: string,
    params: Record<string, string>,
    { schema, wait, background }: { schema: S } & WindowPlace,
  ): Promise<TmdbAnswer<z.output<S>>> {
    const url = tmdbUrl(baseUrl, path, params);
    if (!apiKey && !readAccessToken) {
      throw new Problem(
        500,
        "catalog_not_configured",
        "The movie database is not configured (TMDB_API_KEY or TMDB_READ_ACCESS_TOKEN).",
      );
    }
    const headers: Record<string, string> = { accept: "application/json" };
    // The v4 token is TMDB's default method; the v3 key is the fallback.
    if (readAccessToken) headers.authorization = `Bearer ${readAccessToken}`;
    else url.searchParams.set("api_key", apiKey!);

    for (let upstream429 = 0;;) {
      const windowHeaders = await window.acquire({ wait, background });
      const fail = (status: number, code: string, detail: string, cause?: unknown) =>
        new Problem(status, code, detail, { headers: windowHeaders, cause });
      let response: Response;
      try {
        response = await deps.fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        const timedOut = error instanceof DOMException && error.name === "TimeoutError";
        throw fail(
          500,
          "upstream_error",
          timedOut
            ? "The movie database did not answer in time."
            : "The movie database could not be reached.",
          describe(error),
        );
      }
      if (response.status === 429) {
        await response.body?.cancel();
        await window.block(
          reopenAfter429(response.headers.get("retry-after"), { now: deps.clock.now() }),
        );
        if (wait && ++upstream429 < MAX_UPSTREAM_429) continue;
        const closed = await window.peek();
        const reset = Number(closed["X-RateLimit-Reset"]) * 1000;
        const retryAfter = String(Math.max(1, Math.ceil((reset - deps.clock.now()) / 1000)));
        // A waiting caller (detail, popular, import) ends as the window's own bound does: the
        // detail route has no 429 in the interface, search does.
        throw wait
          ? new Problem(503, "upstream_busy", "The movie database is busy; try again shortly.", {
            headers: { ...closed, "Retry-After": retryAfter },
          })
          : new Problem(
            429,
            "rate_limited",
            "The movie database is rate limiting requests; try again shortly.",
            { headers: { ...closed, "Retry-After": retryAfter } },
          );
      }
      if (response.status === 404 && path.startsWith("/movie/") && path !== "/movie/popular") {
        await response.body?.cancel();
        throw fail(404, "movie_not_found", "The movie database has no movie with this id.");
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch (error) {
        if (!response.ok) {
          throw fail(500, "upstream_error", `The movie database answered ${response.status}.`);
        }
        throw fail(
          502,
          "upstream_bad_response",
          "The movie database answered in an unexpected format.",
          describe(error),
        );
      }
      if (!response.ok) {
        throw fail(
          500,
          "upstream_error",
          `The movie database answered ${response.status}.`,
          `status ${response.status}`,
        );
      }
      const parsed = schema.safeParse(body);
      if (!parsed.success) {
        throw fail(
          502,
          "upstream_bad_response",
          "The movie database answered in an unexpected format.",
          parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".")}: ${i.message}`).join(
            "; ",
          ),
        );
      }
      return { value: parsed.data, headers: windowHeaders };
    }
  }

  return {
    request,
    search: (query, { year, page, wait, background }) =>
      request("/search/movie", {
        query,
        page: String(page ?? 1),
        include_adult: "false",
        ...(year ? { year: String(year) } : {}),
      }, { schema: tmdbList, wait, background }),
    popular: (page, place) =>
      request("/movie/popular", { page: String(page) }, { schema: tmdbList, ...place }),
    movie: (id, place) =>
      request(`/movie/${id}`, { append_to_response: DETAIL_APPENDS }, {
        schema: tmdbMovie,
        ...place,
      }),
  };
}

// The cause of a problem is logged, and fetch errors quote the URL: never let the key through.
function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.replace(/api_key=[^&\s)]*/g, "api_key=[redacted]");
}
