/**
 * Which film a Trakt body names (docs/trakt.md, "Writes and scrobbles"): the TMDB id (or the
 * trakt id, which is the same catalog id) as it is, fetched through the shared window when the
 * movies store lacks it (a few at a time); when TMDB does not know it, or there is none, the
 * IMDb id among stored movies (detail fetches keep `imdb_id`); else a slug among stored movies of
 * its year; else title and year as the history import matches them (the webhooks' resolver,
 * lib/connections/webhooks/resolve.ts). Anything else is not found.
 */
import type { MovieSource } from "@/lib/catalog/types.ts";
import type { Clock } from "@/lib/core/clock.ts";
import { limiter } from "@/lib/core/async/limiter.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { resolveMovie } from "../webhooks/resolve.ts";
import { traktSlug } from "./movie_object.ts";

/** How a Trakt body names a movie: `ids` and, optionally, `title` and `year`. */
export interface TraktMovieRef {
  ids?: { trakt?: unknown; tmdb?: unknown; imdb?: unknown; slug?: unknown } | null;
  title?: unknown;
  year?: unknown;
}

/** What resolving needs: the movies store, the catalog behind the window, the clock. */
export interface ResolveDeps {
  store: Store;
  catalog: MovieSource;
  clock: Clock;
}

const MAX_ID = 2_147_483_647;

/** Unknown TMDB ids of one body fetched at once. */
const FETCHES_AT_ONCE = 8;

function positiveId(value: unknown): number | null {
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) && n > 0 && n <= MAX_ID ? n : null;
}

function imdbOf(value: unknown): string | null {
  return typeof value === "string" && /^tt\d{1,10}$/.test(value.trim()) ? value.trim() : null;
}

function textOf(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** The catalog id of a TMDB (or trakt) id: stored, or confirmed through the window. */
async function byTmdb(deps: ResolveDeps, id: number, known: Set<number>): Promise<number | null> {
  if (known.has(id)) return id;
  const found = await resolveMovie(deps, { tmdbId: id });
  return "catalogId" in found ? found.catalogId : null;
}

async function byImdb(store: Store, imdbIds: string[]): Promise<Map<string, number>> {
  if (imdbIds.length === 0) return new Map();
  const rows = await store.query<{ imdb_id: string; catalog_id: number }>(
    `select distinct on (imdb_id) imdb_id, catalog_id from public.movies
      where imdb_id = any($1::text[]) order by imdb_id, catalog_id`,
    [imdbIds],
  );
  return new Map(rows.map((r) => [r.imdb_id, Number(r.catalog_id)]));
}

async function bySlug(deps: ResolveDeps, slug: string): Promise<number | null> {
  const store = deps.store;
  const id = positiveId(slug);
  if (id !== null) return await byTmdb(deps, id, new Set());
  const year = /-(\d{4})$/.exec(slug)?.[1];
  if (!year) return null;
  const rows = await store.query<{ catalog_id: number; title: string; year: number }>(
    `select catalog_id, title, year from public.movies where year = $1 order by catalog_id`,
    [Number(year)],
  );
  const match = rows.find((r) => traktSlug(r.catalog_id, r.title, Number(r.year)) === slug);
  return match ? Number(match.catalog_id) : null;
}

/**
 * The catalog id of each reference, in order (null: not found). Stored ids are read in two
 * queries whatever the batch's size; only ids the store lacks go to the window one by one.
 */
export async function resolveTraktMovies(
  deps: ResolveDeps,
  refs: TraktMovieRef[],
): Promise<(number | null)[]> {
  const tmdbIds = refs.map((r) => positiveId(r.ids?.tmdb) ?? positiveId(r.ids?.trakt));
  const wanted = [...new Set(tmdbIds.filter((id): id is number => id !== null))];
  const stored = wanted.length === 0 ? [] : await deps.store.query<{ catalog_id: number }>(
    `select catalog_id from public.movies where catalog_id = any($1::integer[])`,
    [wanted],
  );
  const known = new Set(stored.map((r) => Number(r.catalog_id)));
  // Ids the store lacks are fetched a few at a time: the shared window paces them, and a batch
  // of a thousand unknown films does not wait for each answer in turn.
  const gate = limiter(FETCHES_AT_ONCE);
  const fetched = await Promise.all(
    wanted.filter((id) => !known.has(id)).map((id) => gate(() => byTmdb(deps, id, known))),
  );
  for (const id of fetched) if (id !== null) known.add(id);
  const imdb = await byImdb(
    deps.store,
    [...new Set(refs.map((r) => imdbOf(r.ids?.imdb)).filter((i): i is string => i !== null))],
  );
  const out: (number | null)[] = [];
  for (const [i, ref] of refs.entries()) {
    out.push(await resolveOne(deps, ref, { tmdb: tmdbIds[i], known, imdb }));
  }
  return out;
}

async function resolveOne(
  deps: ResolveDeps,
  ref: TraktMovieRef,
  found: { tmdb: number | null; known: Set<number>; imdb: Map<string, number> },
): Promise<number | null> {
  // A TMDB id TMDB does not know (a film it removed) leaves the other ids to try.
  if (found.tmdb !== null && found.known.has(found.tmdb)) return found.tmdb;
  const imdb = imdbOf(ref.ids?.imdb);
  if (imdb !== null && found.imdb.has(imdb)) return found.imdb.get(imdb)!;
  const slug = textOf(ref.ids?.slug);
  if (slug !== null) {
    const id = await bySlug(deps, slug.toLowerCase());
    if (id !== null) return id;
  }
  const title = textOf(ref.title);
  if (title === null) return null;
  const year = positiveId(ref.year) ?? undefined;
  const match = await resolveMovie(deps, { title, year });
  return "catalogId" in match ? match.catalogId : null;
}
