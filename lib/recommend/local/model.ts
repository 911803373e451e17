/**
 * The local model's arithmetic (docs/recommend.md, "Local picks"): a profile vector from weighted
 * films (each film's features, weighed by kind and rarity, scaled to unit length), a candidate's
 * cosine to it, co-watching, and a small prior from popularity and votes; the best `limit` by a
 * heap over one scan of the index.
 */
import { type FeatureIndex, featuresOf } from "./feature_index.ts";

/** A weighted film the profile is made of (its slot in the index). */
export interface Seed {
  slot: number;
  weight: number;
}

/** A profile: per feature the summed pull, and its length. */
export interface Profile {
  vec: Float32Array;
  norm: number;
  /** Per seed slot, the length of its feature vector. */
  seedNorms: Map<number, number>;
}

/** The length of a slot's weighted feature vector. */
function slotNorm(index: FeatureIndex, slot: number): number {
  let n2 = 0;
  for (const f of featuresOf(index, slot)) n2 += index.weight[f] * index.weight[f];
  return Math.sqrt(n2);
}

/** Sums the seeds' unit vectors, each times its weight. */
export function buildProfile(index: FeatureIndex, seeds: Seed[]): Profile {
  const vec = new Float32Array(index.weight.length);
  const touched: number[] = [];
  const seedNorms = new Map<number, number>();
  for (const seed of seeds) {
    const norm = slotNorm(index, seed.slot);
    seedNorms.set(seed.slot, norm);
    if (norm === 0) continue;
    for (const f of featuresOf(index, seed.slot)) {
      if (vec[f] === 0) touched.push(f);
      vec[f] += seed.weight * index.weight[f] / norm;
    }
  }
  let n2 = 0;
  for (const f of new Set(touched)) n2 += vec[f] * vec[f];
  return { vec, norm: Math.sqrt(n2), seedNorms };
}

/** The cosine of a slot to the profile (0 for an empty profile or a featureless film). */
export function contentScore(index: FeatureIndex, profile: Profile, slot: number): number {
  if (profile.norm === 0) return 0;
  let dot = 0;
  let n2 = 0;
  const s = index.start[slot];
  const end = s + index.len[slot];
  const pool = index.pool;
  const weight = index.weight;
  const vec = profile.vec;
  for (let i = s; i < end; i++) {
    const f = pool[i];
    const w = weight[f];
    dot += w * vec[f];
    n2 += w * w;
  }
  return n2 === 0 ? 0 : dot / (Math.sqrt(n2) * profile.norm);
}

/** How much the prior adds at most (quality and popularity together). */
const PRIOR_MAX = 0.04;

/** Popularity and votes, 0 … PRIOR_MAX: enough to order films the profile cannot tell apart. */
export function priorScore(index: FeatureIndex, slot: number): number {
  const votes = index.voteCount[slot];
  // A Bayesian average pulls a film with few votes towards 6.5.
  const bayes = (index.voteAverage[slot] * votes + 6.5 * 50) / (votes + 50);
  const quality = Math.max(0, Math.min(1, (bayes - 5) / 4));
  const popularity = Math.log1p(index.popularity[slot]) / Math.log1p(index.maxPopularity);
  return (PRIOR_MAX / 2) * quality + (PRIOR_MAX / 2) * popularity;
}

/** The most co-watching adds. */
const CO_WATCH_MAX = 0.3;

/** One seed's co-watching part: its weight times log2(users / 2) (3 users: 0.58). */
export function coWatchPart(weight: number, users: number): number {
  return weight * Math.log2(users / 2);
}

/** Co-watching's score: the seeds' parts summed, scaled and capped. */
export function coWatchScore(parts: number[]): number {
  let sum = 0;
  for (const p of parts) sum += p;
  return Math.max(-CO_WATCH_MAX, Math.min(CO_WATCH_MAX, 0.1 * sum));
}

/** A scored slot. */
interface Scored {
  slot: number;
  score: number;
}

/** Whether `a` ranks before `b`: score, then popularity, then the lower catalog id. */
function before(index: FeatureIndex, a: Scored, b: Scored): boolean {
  if (a.score !== b.score) return a.score > b.score;
  const pa = index.popularity[a.slot];
  const pb = index.popularity[b.slot];
  if (pa !== pb) return pa > pb;
  return index.ids[a.slot] < index.ids[b.slot];
}

/** The best `limit` of the slots `keep` lets through, scored by `score`, best first. */
export function topScored(
  index: FeatureIndex,
  options: { limit: number; keep: (slot: number) => boolean; score: (slot: number) => number },
): Scored[] {
  const { limit } = options;
  if (limit <= 0) return [];
  // A min-heap by rank: its root is the worst kept.
  const heap: Scored[] = [];
  const worse = (i: number, j: number) => before(index, heap[j], heap[i]);
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j], heap[i]]);
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!worse(i, p)) break;
      swap(i, p);
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(l, m)) m = l;
      if (r < heap.length && worse(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (let slot = 0; slot < index.count; slot++) {
    if (index.ids[slot] === 0 || !options.keep(slot)) continue;
    const item = { slot, score: options.score(slot) };
    if (heap.length < limit) {
      heap.push(item);
      up(heap.length - 1);
    } else if (before(index, item, heap[0])) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort((a, b) => (before(index, a, b) ? -1 : 1));
}
