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
import { currentIndex, type FeatureIndex, TOP_REV_SQL } from "./feature_index.ts";
import type { SessionCheck } from "@/lib/platform/session_check.ts";
import type { SeedFilm } from "./explain.ts";
import { explained, type LocalPick, type Scorer } from "./pick_reasons.ts";
import {
  buildProfile,
  contentScore,
  coWatchPart,
  coWatchScore,
  topByProfile,
  topScored,
} from "./model.ts";
import { readTaste } from "./taste.ts";
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

/** One local pick (its reasons are worked out in pick_reasons.ts). */
export type { LocalPick };

/** How much a film asked for as "similar to" pulls. */
const SIMILAR_TO_WEIGHT = 2;

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
  return explained(deps.store, s, top);
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
  const picks = new Map((await explained(deps.store, s, stored)).map((p) => [p.catalogId, p]));
  return opts.catalogIds.map((catalogId) =>
    picks.get(catalogId) ?? { catalogId, score: 0, reasons: [], traits: [] }
  );
}
