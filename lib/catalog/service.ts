/**
 * The catalog service (lib/catalog/types.ts): movie details served from an in-process LRU,
 * then the movies store, then TMDB; search straight from TMDB; the popular feed from KV, then
 * TMDB. Every external call goes through the shared window (external_window.ts).
 */
import { singleFlight } from "../core/async/single_flight.ts";
import type { AppDeps } from "../platform/deps.ts";
import { createExternalWindow, type ExternalWindow } from "./external_window.ts";
import { describeError } from "../core/log.ts";
import { Problem } from "../core/problem.ts";
import { DetailCache } from "./detail_cache.ts";
import {
  DETAIL_TTL_MS,
  freshIds,
  isComplete,
  isFreshComplete,
  readMovie,
  upsertDetail,
  upsertLight,
} from "./movies_store.ts";
import {
  detailRow,
  lightRow,
  type MovieRow,
  toMovieDetail,
  toSearchRow,
  toUnlistedRow,
} from "./normalize.ts";
import { readPopular, writePopular } from "./popular_cache.ts";
import {
  PROVIDERS_TTL_MS,
  providersFor,
  readStoredProviders,
  storeProviders,
} from "./providers.ts";
import { createTmdbClient } from "./tmdb_client.ts";
import { foldTypography } from "./title_match.ts";
import type {
  Catalog,
  DetailsOutcome,
  MovieDetail,
  PopularPage,
  SearchRow,
  UnlistedRow,
  WithRateLimit,
} from "./types.ts";

/** TMDB serves at most this many pages of a list. */
export const MAX_PAGE = 500;
// Background detail fetches run this many at a time, leaving room in the window for users.
const PREFETCH_AT_ONCE = 4;

/** Options of the catalog service; the defaults are the service's own. */
interface CatalogServiceOptions {
  /** Per-call TMDB timeout (default 10 s). */
  timeoutMs?: number;
  /** Entries of the in-process detail cache (0 turns it off). */
  detailCacheSize?: number;
  /** The shared external window (default: the service's, in `deps.kv`). */
  window?: ExternalWindow;
}

/** Builds the catalog service of one app. */
export function createCatalogService(
  deps: AppDeps,
  options: CatalogServiceOptions = {},
): Catalog {
  const { store, kv, clock, config } = deps;
  const window = options.window ?? createExternalWindow(kv, { clock });
  const client = createTmdbClient(deps, { window, timeoutMs: options.timeoutMs });
  const cache = new DetailCache(options.detailCacheSize);
  const imageBase = config.tmdb.imageBaseUrl;
  const detailFlights = new Map<number, Promise<WithRateLimit<MovieDetail>>>();
  const popularFlights = new Map<
    number,
    Promise<WithRateLimit<PopularPage> & { listedIds: number[] }>
  >();

  function remember(row: MovieRow): MovieDetail {
    const detail = toMovieDetail(row, imageBase);
    cache.set(row.catalog_id, detail, row.cached_at + DETAIL_TTL_MS);
    return detail;
  }

  // Fetches, stores and caches the details of `id`; concurrent calls for one id share a fetch.
  function refresh(id: number, background = false): Promise<WithRateLimit<MovieDetail>> {
    return singleFlight(detailFlights, id, async () => {
      const answer = await client.movie(id, { wait: true, background });
      const row = { ...detailRow(answer.value, clock.now()), catalog_id: id };
      await upsertDetail(store, row);
      const watch = answer.value["watch/providers"];
      if (watch) await storeProviders(store, id, { results: watch.results, at: row.cached_at });
      return { value: remember(row), headers: answer.headers };
    });
  }

  // The detail from the store when fresh and complete, else from TMDB (stale if TMDB fails).
  async function loadMovie(id: number): Promise<WithRateLimit<MovieDetail>> {
    const stored = await readMovie(store, id);
    if (stored && isFreshComplete(stored, clock.now())) {
      return { value: remember(stored), headers: await window.peek() };
    }
    try {
      return await refresh(id);
    } catch (error) {
      // Stale but complete details beat an error while TMDB is down or busy; a 404 is TMDB
      // saying the movie is gone, so it is passed on.
      if (!stored || !isComplete(stored) || (error instanceof Problem && error.status === 404)) {
        throw error;
      }
      deps.log({
        level: "warn",
        msg: "catalog detail refresh failed; serving stale details",
        catalogId: id,
        error: describeError(error),
      });
      return { value: toMovieDetail(stored, imageBase), headers: await window.peek() };
    }
  }

  async function staleIds(ids: number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const current = await freshIds(store, unique, { now: clock.now() });
    return unique.filter((id) => !current.has(id));
  }

  return {
    hotMovie(id) {
      const headers = window.peekNow();
      if (!headers) return undefined;
      const value = cache.get(id, clock.now());
      return value && { value, headers };
    },

    movie(id) {
      const hot = cache.get(id, clock.now());
      if (hot) return window.peek().then((headers) => ({ value: hot, headers }));
      return loadMovie(id);
    },

    async search(query, searchOptions = {}) {
      const { year, page, wait = false, background } = searchOptions;
      // Typographic quotes and dashes (Don’t) as TMDB's titles write them (Don't).
      const answer = await client.search(foldTypography(query), { year, page, wait, background });
      const results = answer.value.results.map(toSearchRow).filter((r): r is SearchRow => !!r);
      const unlisted = answer.value.results.map(toUnlistedRow)
        .filter((r): r is UnlistedRow => !!r);
      const totalPages = Math.min(answer.value.total_pages, MAX_PAGE);
      return { value: { results, totalPages, unlisted }, headers: answer.headers };
    },

    async popular(page, popularOptions = {}) {
      if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE) {
        throw new Problem(400, "invalid_query", `page must be an integer from 1 to ${MAX_PAGE}.`);
      }
      if (!popularOptions.skipCache) {
        const cached = await readPopular(kv, page, clock);
        if (cached) return { value: cached, headers: await window.peek() };
      }
      return await singleFlight(popularFlights, page, async () => {
        const answer = await client.popular(page, {
          wait: true,
          background: popularOptions.background,
        });
        const value: PopularPage = {
          page,
          totalPages: Math.min(answer.value.total_pages, MAX_PAGE),
          results: answer.value.results.map(toSearchRow).filter((r): r is SearchRow => !!r),
        };
        // Every row TMDB listed becomes a light row, even one the feed filters out: a card
        // hydrates from it all the same.
        await upsertLight(store, answer.value.results.map(lightRow), { now: clock.now() });
        await writePopular(kv, value, clock);
        // The import fetches details for every listed movie, not just the rows shown.
        return { value, headers: answer.headers, listedIds: answer.value.results.map((r) => r.id) };
      });
    },

    async prefetch(ids, prefetchOptions = {}) {
      const outcome: DetailsOutcome = { fetched: 0, failed: [] };
      const queue = await staleIds(ids);
      const worker = async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          try {
            await refresh(id, prefetchOptions.background);
            outcome.fetched++;
          } catch (error) {
            outcome.failed.push({
              id,
              error: error instanceof Problem
                ? `${error.code}: ${error.message}`
                : "internal_error",
            });
            if (!(error instanceof Problem)) {
              deps.log({
                level: "warn",
                msg: "catalog prefetch failed",
                catalogId: id,
                error: describeError(error),
              });
            }
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(PREFETCH_AT_ONCE, queue.length) }, worker));
      return outcome;
    },

    staleIds,

    async providers(id, region) {
      const stored = await readStoredProviders(store, id);
      const answer = (results: Record<string, unknown>, headers: Record<string, string>) => ({
        value: providersFor(id, region, { results, imageBaseUrl: imageBase }),
        headers,
      });
      if (stored && clock.now() - stored.cachedAt < PROVIDERS_TTL_MS) {
        return answer(stored.results, await window.peek());
      }
      try {
        const { headers } = await refresh(id);
        const fetched = await readStoredProviders(store, id);
        return answer(fetched?.results ?? {}, headers);
      } catch (error) {
        // Week-old offers beat an error while TMDB is down or busy (docs/catalog.md).
        if (!stored) throw error;
        deps.log({
          level: "warn",
          msg: "watch providers refresh failed; serving stored data",
          catalogId: id,
          error: describeError(error),
        });
        return answer(stored.results, await window.peek());
      }
    },

    async refreshMovie(id) {
      await refresh(id);
    },

    rateLimitHeaders: (options) => window.peek(options),
  };
}
