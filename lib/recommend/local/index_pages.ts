/**
 * The local recommender's index as data (docs/recommend.md, "Local picks"): its shape, and how
 * pages of `public.movies` are read into it (lib/recommend/local/feature_index.ts keeps one per
 * store and decides when to read).
 */

/** The kinds of feature, by the letter that starts a feature's key. */
export type FeatureKind = "c" | "d" | "k" | "a" | "g" | "l" | "y" | "r";

/** How much a shared feature of each kind counts, before its rarity (idf). */
export const KIND_WEIGHTS: Record<FeatureKind, number> = {
  c: 3, // the same collection
  d: 2, // a director
  k: 1, // a keyword
  a: 1, // one of the first 5 cast
  g: 0.7, // a genre
  l: 0.5, // the original language
  y: 0.4, // the decade
  r: 0.2, // the runtime band
};

const CAST = 5;

/** The index of one store. */
export interface FeatureIndex {
  /** catalog id → slot. */
  slots: Map<number, number>;
  /** slot → catalog id (0: a slot no longer used). */
  ids: Int32Array;
  count: number;
  /** Each slot's features: `pool[start[s] .. start[s] + len[s]]`, sorted ascending. */
  start: Int32Array;
  len: Uint16Array;
  pool: Int32Array;
  poolUsed: number;
  year: Int16Array;
  runtime: Int16Array;
  popularity: Float32Array;
  voteAverage: Float32Array;
  voteCount: Int32Array;
  /** Feature id of the slot's language, -1 when unknown. */
  language: Int32Array;
  /** Feature id → key (`"k:heist"`, `"c:10:The Dark Knight Collection"`). */
  keys: string[];
  featureIds: Map<string, number>;
  /** Feature id → how many stored movies have it. */
  df: Int32Array;
  /** Feature id → KIND_WEIGHTS × idf, recomputed after each change. */
  weight: Float32Array;
  /** Slot → the prior (popularity and votes, `priorOf`), recomputed with the weights. */
  prior: Float32Array;
  /** Slot → 1 / the length of its weighted vector (0 when featureless), with the weights. */
  invNorm: Float32Array;
  /** The highest features_rev read. */
  rev: number;
  builtAt: number;
  maxPopularity: number;
}

/** A stored movie as the page's text carries it. */
interface MovieFeatureRow {
  catalog_id: number;
  genres: string[];
  keywords: string[];
  directors: string[];
  actors: string[];
  collection_id: number | null;
  collection_name: string | null;
  original_language: string | null;
  year: number;
  runtime: number;
  popularity: number;
  vote_average: number;
  vote_count: number;
}

// A page of rows as one text (fields split by U+001F, lists by U+001D, rows by U+001E): the
// embedded store turns one value into JavaScript far faster than 10,000 rows of arrays, and
// leaves no 10,000 objects behind for the collector. Names never hold these control characters
// (TMDB's names are printable text); one that did would only split a name.
/** One page of rows after `$1` (at most `$2`), as one text. */
export const PAGE_SQL =
  `select string_agg(concat_ws(E'\\x1f', m.catalog_id, m.year, coalesce(m.runtime, 0),
      m.popularity, m.vote_average, m.vote_count, coalesce(m.original_language, ''),
      coalesce(m.collection_id::text, ''), coalesce(m.collection_name, ''),
      coalesce(array_to_string(m.genres, E'\\x1d'), ''),
      coalesce(array_to_string(m.keywords, E'\\x1d'), ''),
      coalesce(array_to_string(m.directors, E'\\x1d'), ''),
      coalesce(array_to_string(m.actors[1:${CAST}], E'\\x1d'), '')), E'\\x1e') as page,
    max(m.features_rev)::float8 as top, count(*)::int as n
  from (select * from public.movies where features_rev > $1
         order by features_rev limit $2) m`;

const list = (text: string) => (text ? text.split("\x1d") : []);

/** A page's line as a row. */
export function parseRow(line: string): MovieFeatureRow {
  const f = line.split("\x1f");
  return {
    catalog_id: Number(f[0]),
    year: Number(f[1]),
    runtime: Number(f[2]),
    popularity: Number(f[3]),
    vote_average: Number(f[4]),
    vote_count: Number(f[5]),
    original_language: f[6] || null,
    collection_id: f[7] ? Number(f[7]) : null,
    collection_name: f[8] || null,
    genres: list(f[9]),
    keywords: list(f[10]),
    directors: list(f[11]),
    actors: list(f[12]),
  };
}

/** An index of nothing yet. */
export function emptyIndex(now: number): FeatureIndex {
  const n = 1024;
  return {
    slots: new Map(),
    ids: new Int32Array(n),
    count: 0,
    start: new Int32Array(n),
    len: new Uint16Array(n),
    pool: new Int32Array(n * 16),
    poolUsed: 0,
    year: new Int16Array(n),
    runtime: new Int16Array(n),
    popularity: new Float32Array(n),
    voteAverage: new Float32Array(n),
    voteCount: new Int32Array(n),
    language: new Int32Array(n),
    keys: [],
    featureIds: new Map(),
    df: new Int32Array(4096),
    weight: new Float32Array(0),
    prior: new Float32Array(0),
    invNorm: new Float32Array(0),
    rev: 0,
    builtAt: now,
    maxPopularity: 1,
  };
}

function grow<T extends Int32Array | Uint16Array | Int16Array | Float32Array>(a: T, n: number): T {
  if (a.length >= n) return a;
  const b = new (a.constructor as new (n: number) => T)(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}

function featureId(index: FeatureIndex, key: string): number {
  let id = index.featureIds.get(key);
  if (id === undefined) {
    id = index.keys.length;
    index.keys.push(key);
    index.featureIds.set(key, id);
    index.df = grow(index.df, id + 1);
  }
  return id;
}

/** The runtime band of a runtime in minutes, or null when unknown. */
function runtimeBand(runtime: number): string | null {
  if (runtime <= 0) return null;
  return runtime < 90 ? "short" : runtime <= 130 ? "feature" : "long";
}

function keysOf(row: MovieFeatureRow): string[] {
  const keys = new Set<string>();
  for (const g of row.genres) if (g) keys.add(`g:${g}`);
  for (const k of row.keywords) if (k) keys.add(`k:${k.toLowerCase()}`);
  for (const d of row.directors) if (d) keys.add(`d:${d}`);
  for (const a of row.actors.slice(0, CAST)) if (a) keys.add(`a:${a}`);
  if (row.collection_id) keys.add(`c:${row.collection_id}:${row.collection_name ?? ""}`);
  if (row.original_language) keys.add(`l:${row.original_language}`);
  if (row.year > 0) keys.add(`y:${Math.floor(row.year / 10) * 10}`);
  const band = runtimeBand(row.runtime ?? 0);
  if (band) keys.add(`r:${band}`);
  return [...keys];
}

function removeSlotFeatures(index: FeatureIndex, slot: number): void {
  const s = index.start[slot];
  for (let i = s; i < s + index.len[slot]; i++) index.df[index.pool[i]]--;
  index.len[slot] = 0;
}

/** Puts a row into the index (a new slot, or its slot's features replaced). */
export function apply(index: FeatureIndex, row: MovieFeatureRow): void {
  const id = Number(row.catalog_id);
  let slot = index.slots.get(id);
  if (slot === undefined) {
    slot = index.count++;
    const n = index.count;
    index.ids = grow(index.ids, n);
    index.start = grow(index.start, n);
    index.len = grow(index.len, n);
    index.year = grow(index.year, n);
    index.runtime = grow(index.runtime, n);
    index.popularity = grow(index.popularity, n);
    index.voteAverage = grow(index.voteAverage, n);
    index.voteCount = grow(index.voteCount, n);
    index.language = grow(index.language, n);
    index.ids[slot] = id;
    index.slots.set(id, slot);
  } else {
    removeSlotFeatures(index, slot);
  }
  const features = keysOf(row).map((k) => featureId(index, k)).sort((a, b) => a - b);
  index.pool = grow(index.pool, index.poolUsed + features.length);
  index.start[slot] = index.poolUsed;
  index.len[slot] = features.length;
  for (const f of features) {
    index.pool[index.poolUsed++] = f;
    index.df[f]++;
  }
  index.year[slot] = Math.max(0, Math.min(32767, Number(row.year) || 0));
  index.runtime[slot] = Math.max(0, Math.min(32767, Number(row.runtime) || 0));
  const popularity = Number(row.popularity) || 0;
  index.popularity[slot] = popularity;
  if (popularity > index.maxPopularity) index.maxPopularity = popularity;
  index.voteAverage[slot] = Number(row.vote_average) || 0;
  index.voteCount[slot] = Number(row.vote_count) || 0;
  index.language[slot] = row.original_language
    ? index.featureIds.get(`l:${row.original_language}`) ?? -1
    : -1;
}

/** Recomputes the weights, priors and norms after rows changed. */
export function reweigh(index: FeatureIndex): void {
  const n = Math.max(1, index.slots.size);
  const weight = new Float32Array(index.keys.length);
  for (let f = 0; f < index.keys.length; f++) {
    const df = index.df[f];
    if (df <= 0) continue;
    weight[f] = KIND_WEIGHTS[index.keys[f][0] as FeatureKind] * Math.log(1 + n / df);
  }
  index.weight = weight;
  const prior = new Float32Array(index.count);
  const invNorm = new Float32Array(index.count);
  for (let slot = 0; slot < index.count; slot++) {
    prior[slot] = priorOf(index, slot);
    let n2 = 0;
    const end = index.start[slot] + index.len[slot];
    for (let i = index.start[slot]; i < end; i++) n2 += weight[index.pool[i]] ** 2;
    invNorm[slot] = n2 > 0 ? 1 / Math.sqrt(n2) : 0;
  }
  index.prior = prior;
  index.invNorm = invNorm;
}

/** How much the prior adds at most (quality and popularity together). */
const PRIOR_MAX = 0.04;

/** Popularity and votes, 0 … PRIOR_MAX: enough to order films the profile cannot tell apart. */
function priorOf(index: FeatureIndex, slot: number): number {
  const votes = index.voteCount[slot];
  // A Bayesian average pulls a film with few votes towards 6.5.
  const bayes = (index.voteAverage[slot] * votes + 6.5 * 50) / (votes + 50);
  const quality = Math.max(0, Math.min(1, (bayes - 5) / 4));
  const popularity = Math.log1p(index.popularity[slot]) / Math.log1p(index.maxPopularity);
  return (PRIOR_MAX / 2) * quality + (PRIOR_MAX / 2) * popularity;
}
