/**
 * Local picks (docs/recommend.md, "Local picks"): the user's films weighed into a profile, every
 * stored film scored against it (plus co-watching and a small prior), watched films, My List
 * (unless ranking My List), dismissals and 👎 left out, the hard filters applied, best first,
 * each with its honest reasons and traits. Nothing is written and no quota is spent.
 */
import { Problem } from "@/lib/core/problem.ts";
import type { Clock } from "@/lib/core/clock.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { coWatched } from "./co_watch.ts";
import { currentIndex, type FeatureIndex, featuresOf, TOP_REV_SQL } from "./feature_index.ts";
import type { SessionCheck } from "@/lib/platform/session_check.ts";
import { explain, isTelling, type SeedFilm, strongestFilm } from "./explain.ts";
import {
  buildProfile,
  contentScore,
  coWatchPart,
  coWatchScore,
  type Profile,
  topByProfile,
  topScored,
} from "./model.ts";
import { readTaste, type Taste } from "./taste.ts";
import { candidateFilter, type PickFilter } from "./filters.ts";

/** What the local model needs: the store and the clock. */
export interface LocalDeps {
  store: Store;
  clock: Clock;
}

/** Options of `localPicks`. */
export interface LocalPickOptions {
  limit: number;
  /** true: only films on the user's services (400 `no_services` without any); absent: the saved switch. */
  onlyMine?: boolean;
  /** Rank My List instead of leaving it out. */
  fromMyList?: boolean;
  /** A genre name the picks must have (any case). */
  genre?: string;
  filter?: PickFilter;
  /** Catalog ids never picked. */
  exclude?: number[];
  /** The token's session, checked inside the first statement (a route's read). */
  session?: SessionCheck;
}

/** One local pick. */
export interface LocalPick {
  catalogId: number;
  score: number;
  reasons: string[];
  /** The shared features that drove it, without the user's films ("heist films"). */
  traits: string[];
}

/** How much a film asked for as "similar to" pulls. */
const SIMILAR_TO_WEIGHT = 2;

/** The reason of a pick chosen by popularity alone. */
export const POPULAR_REASON = "Among the most popular films stored here";

const round = (n: number) => Math.round(n * 1e6) / 1e6;

interface Scorer {
  index: FeatureIndex;
  taste: Taste;
  profile: Profile;
  /** The user's weighted films (and similarTo films), by slot. */
  seeds: Map<number, SeedFilm>;
  /** candidate catalog id → seed slot → co-watch part. */
  coWatch: Map<number, Map<number, number>>;
  /** Slots of watched, dismissed and 👎 films: never picked. */
  excludedSlots: Uint8Array;
  noHistory: boolean;
  /** Per slot, co-watching's part; null when nothing is co-watched. */
  coScore: Float32Array | null;
  /**
   * Titles of the user's films that reasons named, kept with the taste (for as long as it is
   * kept: a minute at most), so a repeated request reads no titles.
   */
  titles: Map<number, string>;
  score(slot: number): number;
}

// A user's weighed taste is kept while nothing the model reads of users changed (the sequence of
// 20261206100301_local_recommend_taste_rev.sql) and the index did not move, for at most a minute
// (a write still uncommitted when the sequence was read is seen then at the latest).
const CACHE_MS = 60_000;
const CACHED_USERS = 32;

interface Cached {
  scorer: Scorer;
  tasteRev: number;
  indexRev: number;
  at: number;
}

const cache = new WeakMap<object, Map<string, Cached>>();

/**
 * One statement: the highest features_rev, the taste sequence, and (when the route handed it in)
 * whether the token's session is still good, so a cached answer costs one round trip.
 */
async function versions(
  store: Store,
  options: { userId: string; session?: SessionCheck },
): Promise<{ top: number; taste: number }> {
  const { session } = options;
  const live = session ? session.liveSql("$1", session.sessionId === null ? null : "$2") : "true";
  const params = session
    ? (session.sessionId ? [options.userId, session.sessionId] : [options.userId])
    : [];
  const [row] = await store.query<{ top: number; taste: number; live: boolean | null }>(
    `select ${TOP_REV_SQL} as top,
            (select last_value::float8 from public.recommend_taste_rev_seq) as taste,
            ${live} as live`,
    params,
  );
  session?.settle(row.live);
  return { top: Number(row.top), taste: Number(row.taste) };
}

async function scorer(
  deps: LocalDeps,
  userId: string,
  options: { similarTo?: number[]; session?: SessionCheck },
): Promise<Scorer> {
  const now = deps.clock.now();
  const { top, taste: rev } = await versions(deps.store, { userId, session: options.session });
  const index = await currentIndex(deps.store, { now, top });
  const key = `${userId}:${(options.similarTo ?? []).join(",")}`;
  let users = cache.get(deps.store);
  if (!users) cache.set(deps.store, users = new Map());
  const hit = users.get(key);
  if (
    hit && hit.tasteRev === rev && hit.scorer.index === index && hit.indexRev === index.rev &&
    now - hit.at < CACHE_MS
  ) {
    return hit.scorer;
  }
  const made = await makeScorer(deps, userId, { ...options, index });
  users.delete(key);
  users.set(key, { scorer: made, tasteRev: rev, indexRev: index.rev, at: now });
  // The oldest first out: a Map iterates in insertion order.
  while (users.size > CACHED_USERS) users.delete(users.keys().next().value!);
  return made;
}

async function makeScorer(
  deps: LocalDeps,
  userId: string,
  options: { similarTo?: number[]; index: FeatureIndex },
): Promise<Scorer> {
  const { index } = options;
  const taste = await readTaste(deps.store, userId);
  const seeds = new Map<number, SeedFilm>();
  for (const film of taste.films) {
    const slot = index.slots.get(film.catalogId);
    if (slot === undefined) continue;
    seeds.set(slot, { ...film, slot, title: "", asked: false });
  }
  for (const id of options.similarTo ?? []) {
    const slot = index.slots.get(id);
    if (slot === undefined) continue;
    const known = seeds.get(slot);
    seeds.set(slot, {
      slot,
      catalogId: id,
      weight: (known?.weight ?? 0) + SIMILAR_TO_WEIGHT,
      rating: null,
      watched: known?.watched ?? false,
      thumb: known?.thumb ?? 0,
      title: "",
      asked: true,
    });
  }
  const list = [...seeds.values()];
  const profile = buildProfile(index, list.map((s) => ({ slot: s.slot, weight: s.weight })));
  // The strongest positive films seed co-watching.
  const positive = list.filter((s) => s.weight > 0).sort((a, b) => b.weight - a.weight);
  const pairs = await coWatched(deps.store, positive.map((s) => s.catalogId), { userId });
  const bySeedId = new Map(list.map((s) => [s.catalogId, s]));
  const coWatch = new Map<number, Map<number, number>>();
  for (const p of pairs) {
    const seed = bySeedId.get(p.seed);
    if (!seed) continue;
    const per = coWatch.get(p.other) ?? new Map<number, number>();
    per.set(seed.slot, coWatchPart(seed.weight, p.users));
    coWatch.set(p.other, per);
  }
  // Per slot, so the scan reads an array rather than a map.
  const coScore = new Float32Array(coWatch.size ? index.count : 0);
  for (const [id, per] of coWatch) {
    const slot = index.slots.get(id);
    if (slot !== undefined) coScore[slot] = coWatchScore([...per.values()]);
  }
  const noHistory = taste.watched.size === 0 && !(options.similarTo?.length);
  const excludedSlots = new Uint8Array(index.count);
  for (const ids of [taste.watched, taste.dismissed, taste.thumbsDown]) {
    for (const id of ids) {
      const slot = index.slots.get(id);
      if (slot !== undefined) excludedSlots[slot] = 1;
    }
  }
  return {
    excludedSlots,
    index,
    taste,
    profile,
    seeds,
    coWatch,
    noHistory,
    coScore: coScore.length ? coScore : null,
    titles: new Map(),
    score: noHistory
      ? (slot) => Math.log1p(index.popularity[slot]) / Math.log1p(index.maxPopularity)
      : coScore.length
      ? (slot) => contentScore(index, profile, slot) + coScore[slot] + index.prior[slot]
      : (slot) => contentScore(index, profile, slot) + index.prior[slot],
  };
}

/** The titles of `ids`, those the scorer holds not read in one statement and kept. */
async function titlesOf(store: Store, s: Scorer, ids: number[]): Promise<Map<number, string>> {
  const missing = ids.filter((id) => !s.titles.has(id));
  if (missing.length > 0) {
    const rows = await store.query<{ catalog_id: number; title: string }>(
      `select catalog_id, title from public.movies where catalog_id = any($1::integer[])`,
      [missing],
    );
    for (const r of rows) s.titles.set(Number(r.catalog_id), String(r.title));
  }
  return s.titles;
}

/** Feature → the user's positive films that have it, for the telling features of `slots`. */
function filmsWithFeatures(s: Scorer, slots: number[]): Map<number, SeedFilm[]> {
  // A byte per feature rather than a set: the loop below asks it once per feature of each of
  // the user's films (90,000 times for 5,000 films).
  const wanted = new Uint8Array(s.index.keys.length);
  for (const slot of slots) {
    for (const f of featuresOf(s.index, slot)) if (isTelling(s.index.keys[f])) wanted[f] = 1;
  }
  const filmsWith = new Map<number, SeedFilm[]>();
  const { start, len, pool } = s.index;
  for (const film of s.seeds.values()) {
    if (film.weight <= 0) continue;
    const end = start[film.slot] + len[film.slot];
    for (let i = start[film.slot]; i < end; i++) {
      const f = pool[i];
      if (!wanted[f]) continue;
      const list = filmsWith.get(f);
      if (list) list.push(film);
      else filmsWith.set(f, [film]);
    }
  }
  return filmsWith;
}

/** The picks of `scored` with their reasons: one read of the titles the reasons name. */
async function explained(
  deps: LocalDeps,
  s: Scorer,
  scored: { slot: number; score: number }[],
): Promise<LocalPick[]> {
  const { index } = s;
  if (s.noHistory) {
    return scored.map((p) => ({
      catalogId: index.ids[p.slot],
      score: round(p.score),
      reasons: [POPULAR_REASON],
      traits: [],
    }));
  }
  const filmsWith = filmsWithFeatures(s, scored.map((p) => p.slot));
  const strong = scored.map((p) => {
    const co = s.coWatch.get(index.ids[p.slot]) ?? new Map<number, number>();
    return strongestFilm(index, {
      slot: p.slot,
      profile: s.profile,
      filmsWith,
      seeds: s.seeds,
      coWatch: new Map([...co].filter(([, v]) => v > 0)),
    });
  });
  const titles = await titlesOf(deps.store, s, [
    ...new Set(strong.flatMap((f) => (f ? [f.film.catalogId] : []))),
  ]);
  for (const f of strong) if (f) f.film.title = titles.get(f.film.catalogId) ?? "";
  return scored.map((p, i) => {
    const film = strong[i];
    const { reasons, traits } = explain(index, {
      slot: p.slot,
      profile: s.profile,
      film: film && film.film.title ? film : null,
      coWatched: false,
      similar: false,
    });
    if (reasons.length === 0) reasons.push("Popular and well rated here");
    return { catalogId: index.ids[p.slot], score: round(p.score), reasons, traits };
  });
}

/** The user's local picks, best first (docs/recommend.md, "Local picks"). */
export async function localPicks(
  deps: LocalDeps,
  userId: string,
  opts: LocalPickOptions,
): Promise<LocalPick[]> {
  const s = await scorer(deps, userId, {
    similarTo: opts.filter?.similarTo,
    session: opts.session,
  });
  const { taste, index } = s;
  const onlyMine = opts.onlyMine ?? (taste.onlyMineSaved && taste.hasServices);
  if (opts.onlyMine === true && !taste.hasServices) {
    throw new Problem(400, "no_services", "Choose your streaming services first (My services).");
  }
  const excluded = [...(opts.exclude ?? []), ...(opts.filter?.similarTo ?? [])];
  if (!opts.fromMyList) excluded.push(...taste.myList);
  const keep = await candidateFilter(deps.store, index, {
    userId,
    excludedSlots: s.excludedSlots,
    excluded,
    only: opts.fromMyList ? new Set(taste.myList) : null,
    onlyMine,
    genre: opts.genre,
    filter: opts.filter,
  });
  const top = s.noHistory
    ? topScored(index, { limit: opts.limit, keep, score: s.score })
    : topByProfile(index, { limit: opts.limit, keep, profile: s.profile, extra: s.coScore });
  return explained(deps, s, top);
}

/**
 * Each of `catalogIds` scored for the user, in the given order (a film not stored scores 0 with
 * no reasons). Nothing is left out: the caller decides what may be shown.
 */
export async function scoreMovies(
  deps: LocalDeps,
  userId: string,
  opts: { catalogIds: number[] },
): Promise<LocalPick[]> {
  const s = await scorer(deps, userId, {});
  const stored = opts.catalogIds.flatMap((id) => {
    const slot = s.index.slots.get(id);
    return slot === undefined ? [] : [{ slot, score: s.score(slot) }];
  });
  const picks = new Map((await explained(deps, s, stored)).map((p) => [p.catalogId, p]));
  return opts.catalogIds.map((catalogId) =>
    picks.get(catalogId) ?? { catalogId, score: 0, reasons: [], traits: [] }
  );
}
