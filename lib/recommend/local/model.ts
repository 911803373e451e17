/**
 * The local model's arithmetic (docs/recommend.md, "Local picks"): a profile vector from weighted
 * films (each film's features, weighed by kind and rarity, scaled to unit length), a candidate's
 * cosine to it, co-watching, and a small prior from popularity and votes; the best `limit` by a
 * heap over one scan of the index.
 */
import type { FeatureIndex } from "./feature_index.ts";

/** A weighted film the profile is made of (its slot in the index). */
interface Seed {
  slot: number;
  weight: number;
}

/** A profile: per feature the summed pull, and its length. */
export interface Profile {
  /** Per feature the pull times the feature's weight: a candidate's dot product sums these. */
  pull: Float32Array;
  norm: number;
  /** Per seed slot, the length of its feature vector. */
  seedNorms: Map<number, number>;
}

/** The length of a slot's weighted feature vector. */
function slotNorm(index: FeatureIndex, slot: number): number {
  let n2 = 0;
  const end = index.start[slot] + index.len[slot];
  for (let i = index.start[slot]; i < end; i++) {
    const w = index.weight[index.pool[i]];
    n2 += w * w;
  }
  return Math.sqrt(n2);
}

/** Sums the seeds' unit vectors, each times its weight. */
export function buildProfile(index: FeatureIndex, seeds: Seed[]): Profile {
  const vec = new Float32Array(index.weight.length);
  const seedNorms = new Map<number, number>();
  const { pool, weight } = index;
  for (const seed of seeds) {
    const norm = slotNorm(index, seed.slot);
    seedNorms.set(seed.slot, norm);
    if (norm === 0) continue;
    const scale = seed.weight / norm;
    const end = index.start[seed.slot] + index.len[seed.slot];
    for (let i = index.start[seed.slot]; i < end; i++) vec[pool[i]] += scale * weight[pool[i]];
  }
  let n2 = 0;
  // In place: the vector itself is needed only for its length (kept per cached user, halved).
  const pull = vec;
  for (let f = 0; f < vec.length; f++) {
    n2 += vec[f] * vec[f];
    pull[f] = vec[f] * weight[f];
  }
  return { pull, norm: Math.sqrt(n2), seedNorms };
}

/** The cosine of a slot to the profile (0 for an empty profile or a featureless film). */
export function contentScore(index: FeatureIndex, profile: Profile, slot: number): number {
  if (profile.norm === 0) return 0;
  let dot = 0;
  const end = index.start[slot] + index.len[slot];
  const { pool } = index;
  const pull = profile.pull;
  for (let i = index.start[slot]; i < end; i++) dot += pull[pool[i]];
  return dot * index.invNorm[slot] / profile.norm;
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
