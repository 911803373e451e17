/**
 * The hard filters of local picks (docs/recommend.md, "Local picks"): exclusions, My List only,
 * "only what I can stream" (the user's stored offers, docs/availability.md), a genre, and
 * Tonight's filters (genres, excluded genres, runtime, years, languages). A film whose runtime,
 * year or language is unknown fails a filter on it: a pick must keep the promise.
 */
import type { Store } from "@/lib/platform/store/mod.ts";
import { MOVIE_GENRES } from "@/lib/catalog/genres.ts";
import { Problem } from "@/lib/core/problem.ts";
import { type FeatureIndex, featuresOf } from "./feature_index.ts";

/** Tonight's hard filters. */
export interface PickFilter {
  /** Any of these genres (names, any case). */
  genres?: string[];
  /** None of these genres. */
  excludeGenres?: string[];
  /** At most this many minutes. */
  runtimeMax?: number | null;
  yearFrom?: number | null;
  yearTo?: number | null;
  /** ISO 639-1 codes of the original language, any of. */
  languages?: string[];
  /** Catalog ids the picks should resemble (never picked themselves). */
  similarTo?: number[];
}

const GENRE_BY_LOWER = new Map([...MOVIE_GENRES.values()].map((g) => [g.toLowerCase(), g]));

/** The genre's stored name for a name in any case (or a TMDB genre id), or null. */
export function genreName(value: string): string | null {
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return MOVIE_GENRES.get(Number(trimmed)) ?? null;
  return GENRE_BY_LOWER.get(trimmed.toLowerCase()) ?? null;
}

const MY_OFFERS_SQL = `select distinct so.catalog_id
    from public.user_services us
    join public.movie_streaming_offers so
      on so.region = us.region and so.provider_id = any (us.provider_ids)
   where us.user_id = $1::uuid`;

function featureSet(index: FeatureIndex, keys: string[]): Set<number> {
  const ids = new Set<number>();
  for (const key of keys) {
    const id = index.featureIds.get(key);
    if (id !== undefined) ids.add(id);
  }
  return ids;
}

function hasAny(features: Int32Array, set: Set<number>): boolean {
  for (const f of features) if (set.has(f)) return true;
  return false;
}

/** The test a slot must pass to be a candidate. */
export async function candidateFilter(
  store: Store,
  index: FeatureIndex,
  options: {
    userId: string;
    /** Slots never picked (the user's own exclusions, kept with the taste), or null. */
    excludedSlots: Uint8Array | null;
    /** More catalog ids never picked. */
    excluded: Iterable<number>;
    /** Only these catalog ids (My List), or null for every stored film. */
    only: Set<number> | null;
    onlyMine: boolean;
    genre?: string;
    filter?: PickFilter;
  },
): Promise<(slot: number) => boolean> {
  const f = options.filter ?? {};
  const names = (list: string[] | undefined) =>
    (list ?? []).map((g) => genreName(g) ?? g).map((g) => `g:${g}`);
  const wanted = f.genres?.length ? featureSet(index, names(f.genres)) : null;
  const unwanted = featureSet(index, names(f.excludeGenres));
  let genre: number | null = null;
  if (options.genre !== undefined) {
    const name = genreName(options.genre);
    if (!name) throw new Problem(400, "invalid_query", `Unknown genre: ${options.genre}`);
    genre = index.featureIds.get(`g:${name}`) ?? -1;
  }
  const languages = f.languages?.length
    ? featureSet(index, f.languages.map((l) => `l:${l.toLowerCase()}`))
    : null;
  let mine: Set<number> | null = null;
  if (options.onlyMine) {
    // Scoped to the verified user by id, as the lists' "available to me" reads are.
    const rows = await store.query<{ catalog_id: number }>(MY_OFFERS_SQL, [options.userId]);
    mine = new Set(rows.map((r) => Number(r.catalog_id)));
  }
  // Sets of ids as masks over the slots: the scan reads a byte where it would hash an id.
  const mask = (ids: Iterable<number>) => {
    const m = new Uint8Array(index.count);
    for (const id of ids) {
      const slot = index.slots.get(id);
      if (slot !== undefined) m[slot] = 1;
    }
    return m;
  };
  const excluded = options.excludedSlots
    ? options.excludedSlots.slice()
    : new Uint8Array(index.count);
  for (const id of options.excluded) {
    const slot = index.slots.get(id);
    if (slot !== undefined) excluded[slot] = 1;
  }
  // My List alone and "only what I can stream" join the exclusions, so the scan asks one byte.
  for (const ids of [options.only, mine]) {
    if (!ids) continue;
    const inside = mask(ids);
    for (let slot = 0; slot < index.count; slot++) if (!inside[slot]) excluded[slot] = 1;
  }
  const plain = f.runtimeMax == null && f.yearFrom == null && f.yearTo == null && !languages &&
    genre === null && !wanted && unwanted.size === 0;
  if (plain) return (slot) => excluded[slot] === 0;
  return (slot) => {
    if (excluded[slot]) return false;
    if (f.runtimeMax != null && (index.runtime[slot] <= 0 || index.runtime[slot] > f.runtimeMax)) {
      return false;
    }
    const year = index.year[slot];
    if (f.yearFrom != null && (year <= 0 || year < f.yearFrom)) return false;
    if (f.yearTo != null && (year <= 0 || year > f.yearTo)) return false;
    if (languages && !languages.has(index.language[slot])) return false;
    if (genre === null && !wanted && unwanted.size === 0) return true;
    const features = featuresOf(index, slot);
    if (genre !== null && !features.includes(genre)) return false;
    if (wanted && !hasAny(features, wanted)) return false;
    if (unwanted.size > 0 && hasAny(features, unwanted)) return false;
    return true;
  };
}
