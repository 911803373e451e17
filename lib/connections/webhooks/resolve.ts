/**
 * Which movie an event names (docs/connections.md): a TMDB id as it is, fetched through the
 * shared window when the movies store lacks it (TMDB's 404 makes it unmatched); without one,
 * title and year by the catalog's unique match, as the history import matches them
 * (lib/catalog/unique_match.ts, docs/history.md): the movies store first, then the catalog search
 * with the year and a year either side, a unique best match or none.
 */
import { rememberSearchRows } from "@/lib/catalog/remember_search_rows.ts";
import { retryingSearch } from "@/lib/catalog/retrying_search.ts";
import type { MovieSource } from "@/lib/catalog/types.ts";
import { uniqueSearchMatch, uniqueStoredMatches } from "@/lib/catalog/unique_match.ts";
import type { Clock } from "@/lib/core/clock.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import type { NamedMovie } from "./media_event.ts";

/** A resolved movie with the title and year to show in the events, or why there is none. */
type Resolved =
  | { catalogId: number; title: string | null; year: number | null; unconfirmed?: true }
  | { reason: string };

async function stored(store: Store, id: number) {
  const [row] = await store.query<{ title: string; year: number }>(
    `select title, year from public.movies where catalog_id = $1`,
    [id],
  );
  return row ? { catalogId: id, title: row.title, year: Number(row.year) || null } : null;
}

async function byId(catalog: MovieSource, store: Store, movie: NamedMovie & { tmdbId: number }) {
  const known = await stored(store, movie.tmdbId);
  if (known) return known;
  try {
    const { value } = await catalog.movie(movie.tmdbId);
    return { catalogId: movie.tmdbId, title: value.title, year: value.year || null };
  } catch (error) {
    if (error instanceof Problem && error.status === 404) return { reason: "not_found" };
    // TMDB busy or down: the server's id is trusted rather than losing the viewing, and a later
    // event of the owner confirms it or takes it back (unconfirmed.ts).
    return {
      catalogId: movie.tmdbId,
      title: movie.title ?? null,
      year: movie.year ?? null,
      unconfirmed: true as const,
    };
  }
}

async function byTitle(
  deps: { catalog: MovieSource; store: Store; clock: Clock },
  movie: NamedMovie & { title: string },
): Promise<Resolved> {
  const wanted = { title: movie.title, year: movie.year };
  const [inStore] = await uniqueStoredMatches(deps.store, [wanted]);
  if (inStore !== null) return (await stored(deps.store, inStore))!;
  try {
    const match = await uniqueSearchMatch(wanted, retryingSearch(deps.catalog, deps.clock));
    if (!("id" in match)) return { reason: match.reason };
    if (match.found) {
      await rememberSearchRows(deps.store, [match.found], { now: deps.clock.now() });
    }
    return (await stored(deps.store, match.id)) ??
      { catalogId: match.id, title: movie.title, year: movie.year ?? null };
  } catch {
    return { reason: "catalog_unavailable" };
  }
}

/** Resolves `movie` to a catalog id. */
export function resolveMovie(
  deps: { catalog: MovieSource; store: Store; clock: Clock },
  movie: NamedMovie,
): Promise<Resolved> {
  // An id that cannot be TMDB's is never looked up (nor replaced by a title match).
  if (movie.invalidId) return Promise.resolve({ reason: "invalid_id" });
  if (movie.tmdbId !== undefined) {
    return byId(deps.catalog, deps.store, { ...movie, tmdbId: movie.tmdbId });
  }
  if (movie.title !== undefined) return byTitle(deps, { ...movie, title: movie.title });
  return Promise.resolve({ reason: "no_movie" });
}
