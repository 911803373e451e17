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
import { currentIndex, type FeatureIndex } from "./feature_index.ts";
import { explain, type SeedFilm } from "./explain.ts";
import {
  buildProfile,
  contentScore,
  coWatchPart,
  coWatchScore,
  priorScore,
  type Profile,
  type Seed,
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
  seeds: Map<number, SeedFilm>;
  /** candidate catalog id → seed slot → co-watch part. */
  coWatch: Map<number, Map<number, number>>;
  noHistory: boolean;
  score(slot: number): number;
}

async function scorer(
  deps: LocalDeps,
  userId: string,
  options: { similarTo?: number[] },
): Promise<Scorer> {
  const [index, taste] = await Promise.all([
    currentIndex(deps.store, { now: deps.clock.now() }),
    readTaste(deps.store, userId),
  ]);
  const weighted: { id: number; slot: number; weight: number; asked: boolean }[] = [];
  for (const film of taste.films) {
    const slot = index.slots.get(film.catalogId);
    if (slot !== undefined) {
      weighted.push({ id: film.catalogId, slot, weight: film.weight, asked: false });
    }
  }
  for (const id of options.similarTo ?? []) {
    const slot = index.slots.get(id);
    if (slot !== undefined) weighted.push({ id, slot, weight: SIMILAR_TO_WEIGHT, asked: true });
  }
  const seeds: Seed[] = weighted.map((w) => ({ slot: w.slot, weight: w.weight }));
  const profile = buildProfile(index, seeds);
  // The strongest positive films seed co-watching.
  const positive = weighted.filter((w) => w.weight > 0).sort((a, b) => b.weight - a.weight);
  const pairs = await coWatched(deps.store, positive.map((w) => w.id), { userId });
  const weightOf = new Map(weighted.map((w) => [w.id, w]));
  const coWatch = new Map<number, Map<number, number>>();
  const coScore = new Map<number, number>();
  for (const p of pairs) {
    const seed = weightOf.get(p.seed);
    if (!seed) continue;
    const per = coWatch.get(p.other) ?? new Map<number, number>();
    per.set(seed.slot, coWatchPart(seed.weight, p.users));
    coWatch.set(p.other, per);
  }
  for (const [id, per] of coWatch) coScore.set(id, coWatchScore([...per.values()]));
  const titles = await titlesOf(deps.store, weighted.filter((w) => w.weight > 0).map((w) => w.id));
  const byId = new Map(taste.films.map((f) => [f.catalogId, f]));
  const films = new Map<number, SeedFilm>();
  for (const w of weighted) {
    const f = byId.get(w.id);
    films.set(w.slot, {
      slot: w.slot,
      weight: w.weight,
      title: titles.get(w.id) ?? "",
      rating: w.asked ? null : f?.rating ?? null,
      watched: f?.watched ?? false,
      thumb: f?.thumb ?? 0,
      asked: w.asked,
    });
  }
  const noHistory = taste.watched.size === 0 && !(options.similarTo?.length);
  return {
    index,
    taste,
    profile,
    seeds: films,
    coWatch,
    noHistory,
    score: noHistory
      ? (slot) => Math.log1p(index.popularity[slot]) / Math.log1p(index.maxPopularity)
      : (slot) =>
        contentScore(index, profile, slot) + (coScore.get(index.ids[slot]) ?? 0) +
        priorScore(index, slot),
  };
}

async function titlesOf(store: Store, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await store.query<{ catalog_id: number; title: string }>(
    `select catalog_id, title from public.movies where catalog_id = any($1::integer[])`,
    [ids],
  );
  return new Map(rows.map((r) => [Number(r.catalog_id), String(r.title)]));
}

function pickOf(s: Scorer, slot: number, score: number): LocalPick {
  const catalogId = s.index.ids[slot];
  if (s.noHistory) return { catalogId, score: round(score), reasons: [POPULAR_REASON], traits: [] };
  // Only the seeds' co-watching reaches the reasons when the film's features add nothing.
  const co = s.coWatch.get(catalogId) ?? new Map<number, number>();
  const positiveCo = new Map([...co].filter(([, v]) => v > 0));
  const { reasons, traits } = explain(s.index, {
    slot,
    profile: s.profile,
    films: s.seeds,
    coWatch: positiveCo,
    similar: false,
  });
  if (reasons.length === 0) reasons.push("Popular and well rated here");
  return { catalogId, score: round(score), reasons, traits };
}

/** The user's local picks, best first (docs/recommend.md, "Local picks"). */
export async function localPicks(
  deps: LocalDeps,
  userId: string,
  opts: LocalPickOptions,
): Promise<LocalPick[]> {
  const s = await scorer(deps, userId, { similarTo: opts.filter?.similarTo });
  const { taste, index } = s;
  const onlyMine = opts.onlyMine ?? (taste.onlyMineSaved && taste.hasServices);
  if (opts.onlyMine === true && !taste.hasServices) {
    throw new Problem(400, "no_services", "Choose your streaming services first (My services).");
  }
  const excluded = new Set<number>([
    ...taste.watched,
    ...taste.dismissed,
    ...taste.thumbsDown,
    ...(opts.exclude ?? []),
    ...(opts.filter?.similarTo ?? []),
  ]);
  if (!opts.fromMyList) { for (const id of taste.myList) excluded.add(id); }
  const keep = await candidateFilter(deps.store, index, {
    userId,
    excluded,
    only: opts.fromMyList ? new Set(taste.myList) : null,
    onlyMine,
    genre: opts.genre,
    filter: opts.filter,
  });
  return topScored(index, { limit: opts.limit, keep, score: s.score })
    .map((p) => pickOf(s, p.slot, p.score));
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
  return opts.catalogIds.map((catalogId) => {
    const slot = s.index.slots.get(catalogId);
    if (slot === undefined) return { catalogId, score: 0, reasons: [], traits: [] };
    return pickOf(s, slot, s.score(slot));
  });
}
