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

/**
 * A bounded heap of the best `limit` slots, in typed arrays: its root is the worst kept, so a
 * slot scoring below it is turned away with one comparison and nothing is allocated per slot.
 * The order is score, then popularity, then the lower catalog id (a total order: ties cannot
 * make two runs differ).
 */
class TopK {
  readonly scores: Float64Array;
  readonly slots: Int32Array;
  size = 0;

  constructor(private readonly index: FeatureIndex, readonly limit: number) {
    this.scores = new Float64Array(limit);
    this.slots = new Int32Array(limit);
  }

  /** Whether (score a, slot a) ranks before (score b, slot b). */
  private before(sa: number, a: number, sb: number, b: number): boolean {
    if (sa !== sb) return sa > sb;
    const { popularity, ids } = this.index;
    if (popularity[a] !== popularity[b]) return popularity[a] > popularity[b];
    return ids[a] < ids[b];
  }

  private worse(i: number, j: number): boolean {
    return this.before(this.scores[j], this.slots[j], this.scores[i], this.slots[i]);
  }

  private swap(i: number, j: number): void {
    const s = this.scores[i];
    this.scores[i] = this.scores[j];
    this.scores[j] = s;
    const t = this.slots[i];
    this.slots[i] = this.slots[j];
    this.slots[j] = t;
  }

  offer(slot: number, score: number): void {
    if (this.size < this.limit) {
      let i = this.size++;
      this.scores[i] = score;
      this.slots[i] = slot;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    if (score < this.scores[0] || !this.before(score, slot, this.scores[0], this.slots[0])) return;
    this.scores[0] = score;
    this.slots[0] = slot;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.size && this.worse(l, m)) m = l;
      if (r < this.size && this.worse(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  /** The kept slots, best first. */
  sorted(): Scored[] {
    const out: Scored[] = [];
    for (let i = 0; i < this.size; i++) out.push({ slot: this.slots[i], score: this.scores[i] });
    return out.sort((a, b) => (this.before(a.score, a.slot, b.score, b.slot) ? -1 : 1));
  }
}

/** The best `limit` of the slots `keep` lets through, scored by `score`, best first. */
export function topScored(
  index: FeatureIndex,
  options: { limit: number; keep: (slot: number) => boolean; score: (slot: number) => number },
): Scored[] {
  if (options.limit <= 0) return [];
  const top = new TopK(index, options.limit);
  for (let slot = 0; slot < index.count; slot++) {
    if (index.ids[slot] === 0 || !options.keep(slot)) continue;
    top.offer(slot, options.score(slot));
  }
  return top.sorted();
}

/**
 * `topScored` for a profile's picks with the scan written out: each kept slot's cosine to the
 * profile (as `contentScore`), plus `extra[slot]` when given (co-watching), plus the prior, in
 * that order of additions, so the scores are the very numbers `contentScore` would give.
 */
export function topByProfile(
  index: FeatureIndex,
  options: {
    limit: number;
    keep: (slot: number) => boolean;
    profile: Profile;
    extra: Float32Array | null;
  },
): Scored[] {
  if (options.limit <= 0) return [];
  const top = new TopK(index, options.limit);
  const { ids, start, len, pool, invNorm, prior, count } = index;
  const { pull, norm } = options.profile;
  const { extra, keep } = options;
  for (let slot = 0; slot < count; slot++) {
    if (ids[slot] === 0 || !keep(slot)) continue;
    let content = 0;
    if (norm !== 0) {
      let dot = 0;
      const end = start[slot] + len[slot];
      for (let i = start[slot]; i < end; i++) dot += pull[pool[i]];
      content = dot * invNorm[slot] / norm;
    }
    const score = extra ? content + extra[slot] + prior[slot] : content + prior[slot];
    top.offer(slot, score);
  }
  return top.sorted();
}
