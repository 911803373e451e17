/**
 * Honest reasons (docs/recommend.md, "Local picks"): only what raised the score. The features a
 * pick shares with the profile, grouped by kind and ordered by how much each group added, and the
 * user's own films that shared the telling features (collection, director, keyword, cast) or were
 * co-watched with it. Traits are the same features without any film of the user's, phrased to
 * follow "love …" (movie night says "Both of you love heist films").
 */
import { type FeatureIndex, type FeatureKind, featuresOf } from "./feature_index.ts";
import type { Profile } from "./model.ts";

/** What a reason may name of one of the user's films. */
export interface SeedFilm {
  slot: number;
  catalogId: number;
  weight: number;
  /** Read for the films a reason names only. */
  title: string;
  rating: number | null;
  watched: boolean;
  thumb: 1 | -1 | 0;
  /** Asked for as "similar to" (Tonight's filter), not a film of the user's history. */
  asked: boolean;
}

/** Why a pick: reasons for people, traits for a group. */
interface Explanation {
  reasons: string[];
  traits: string[];
}

// A group must add this share of what the features added to be named.
const NAMED_SHARE = 0.1;
const SPECIFIC = new Set<FeatureKind>(["c", "d", "k", "a"]);
const MAX_REASONS = 3;
const MAX_TRAITS = 4;

let languageNames: Intl.DisplayNames | null = null;

/** The English name of an ISO 639-1 code (the code itself when unknown). */
function languageName(code: string): string {
  try {
    languageNames ??= new Intl.DisplayNames(["en"], { type: "language" });
    return languageNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** A feature key's label: `k:heist` → heist, `c:10:The Dark Knight Collection` → its name. */
function labelOf(key: string): string {
  const kind = key[0];
  const rest = key.slice(2);
  if (kind === "c") return rest.slice(rest.indexOf(":") + 1);
  if (kind === "l") return languageName(rest);
  // `y:1990` is the 1990s ("From the 1990s, a decade you like", "1990s films").
  if (kind === "y") return `${rest}s`;
  return rest;
}

function joinNames(names: string[]): string {
  return names.length <= 1
    ? names.join("")
    : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** The sentence for one kind's shared features; `similar` phrases it as "Also …". */
function groupReason(kind: FeatureKind, labels: string[], similar: boolean): string | null {
  const names = joinNames(labels.slice(0, 2));
  switch (kind) {
    case "c":
      return similar ? `Also in ${names}` : `Part of ${names}`;
    case "d":
      return similar ? `Also directed by ${names}` : `Directed by ${names}`;
    case "a":
      return similar ? `Also with ${names}` : `With ${names}`;
    case "k":
      return similar ? `Also about ${names}` : `About ${names}, as films you like`;
    case "g":
      return similar ? `Also ${names}` : `${names}, genres you like`;
    case "l":
      return similar ? `Also in ${names}` : `In ${names}, as films you like`;
    case "y":
      return similar ? `Also from the ${names}` : `From the ${names}, a decade you like`;
    default:
      return null;
  }
}

function traitOf(kind: FeatureKind, label: string): string | null {
  switch (kind) {
    case "c":
      return label;
    case "d":
      return `${label} films`;
    case "a":
      return `films with ${label}`;
    case "k":
      return `${label} films`;
    case "g":
      return `${label.toLowerCase()} films`;
    case "l":
      return `${label} films`;
    case "y":
      return `${label} films`;
    default:
      return null;
  }
}

/** A film's reason: "Because you rated Heat 9/10". */
function filmReason(film: SeedFilm, coWatched: boolean): string {
  if (coWatched && !film.asked) return `Often watched here by people who watched ${film.title}`;
  if (film.asked) return `Similar to ${film.title}`;
  if (film.rating !== null) return `Because you rated ${film.title} ${film.rating}/10`;
  if (film.thumb > 0) return `Because you liked ${film.title}`;
  return `Because you watched ${film.title}`;
}

/**
 * Explains `slot`'s score: the feature groups that added at least a tenth of its content score,
 * after (for picks) the user's film that added most through telling features or co-watching.
 */
export function explain(
  index: FeatureIndex,
  options: {
    slot: number;
    profile: Profile;
    /** The user's film the first reason names (picks only; see `strongestFilm`). */
    film: StrongFilm | null;
    /** Whether co-watching added ("more like this" says so without naming anyone). */
    coWatched: boolean;
    similar: boolean;
  },
): Explanation {
  const { slot, profile } = options;
  const features = featuresOf(index, slot);
  const groups = new Map<FeatureKind, { sum: number; parts: { label: string; v: number }[] }>();
  let total = 0;
  for (const f of features) {
    const v = profile.pull[f];
    if (v <= 0) continue;
    total += v;
    const key = index.keys[f];
    const kind = key[0] as FeatureKind;
    const g = groups.get(kind) ?? { sum: 0, parts: [] };
    g.sum += v;
    g.parts.push({ label: labelOf(key), v });
    groups.set(kind, g);
  }
  const named = [...groups].filter(([, g]) => g.sum >= NAMED_SHARE * total)
    .sort((a, b) => b[1].sum - a[1].sum);
  for (const [, g] of named) g.parts.sort((a, b) => b.v - a.v);

  const reasons: string[] = [];
  const film = options.film;
  if (film) reasons.push(filmReason(film.film, film.coWatched));
  // "More like this" names no film: co-watching with the page's film is said plainly, first.
  if (options.similar && options.coWatched) {
    reasons.push("Often watched together with this film by people here");
  }
  for (const [kind, g] of named) {
    if (reasons.length >= MAX_REASONS) break;
    const reason = groupReason(kind, g.parts.map((p) => p.label), options.similar);
    if (reason) reasons.push(reason);
  }
  const traits: string[] = [];
  for (const [kind, g] of named) {
    for (const part of g.parts.slice(0, kind === "g" || kind === "k" ? 2 : 1)) {
      const trait = traitOf(kind, part.label);
      if (trait && traits.length < MAX_TRAITS) traits.push(trait);
    }
  }
  return { reasons, traits };
}

/**
 * "More like this" reasons from shared features given as labels with their weights (the cold
 * path, lib/recommend/local/similar_cold.ts): grouped by kind, the groups that add at least a
 * tenth named, biggest first, at most 3, phrased as the index's answer phrases them.
 */
export function sharedReasons(shared: { kind: FeatureKind; label: string; weight: number }[]) {
  const groups = new Map<FeatureKind, { sum: number; labels: string[] }>();
  let total = 0;
  for (const { kind, label, weight } of shared) {
    total += weight;
    const g = groups.get(kind) ?? { sum: 0, labels: [] };
    g.sum += weight;
    g.labels.push(kind === "l" ? languageName(label) : label);
    groups.set(kind, g);
  }
  const reasons: string[] = [];
  const named = [...groups].filter(([, g]) => g.sum >= NAMED_SHARE * total)
    .sort((a, b) => b[1].sum - a[1].sum);
  for (const [kind, g] of named) {
    if (reasons.length >= MAX_REASONS) break;
    const reason = groupReason(kind, g.labels, true);
    if (reason) reasons.push(reason);
  }
  return reasons;
}

/** The film of the user's a pick's first reason names, and whether co-watching alone tied them. */
interface StrongFilm {
  film: SeedFilm;
  coWatched: boolean;
}

/** Whether a feature key is of a telling kind (collection, director, keyword, cast). */
export function isTelling(key: string): boolean {
  return SPECIFIC.has(key[0] as FeatureKind);
}

/**
 * The user's film that added most to `slot` through telling features (`filmsWith`: feature →
 * the user's positive films that have it) and co-watching (`coWatch`: seed slot → its part).
 */
export function strongestFilm(
  index: FeatureIndex,
  options: {
    slot: number;
    profile: Profile;
    filmsWith: Map<number, SeedFilm[]>;
    seeds: Map<number, SeedFilm>;
    coWatch: Map<number, number>;
  },
): StrongFilm | null {
  const { profile } = options;
  const content = new Map<SeedFilm, number>();
  if (profile.norm > 0) {
    for (const f of featuresOf(index, options.slot)) {
      const films = options.filmsWith.get(f);
      if (!films) continue;
      const w2 = index.weight[f] * index.weight[f];
      for (const film of films) {
        const norm = profile.seedNorms.get(film.slot) ?? 0;
        if (norm <= 0) continue;
        content.set(film, (content.get(film) ?? 0) + film.weight * w2 / norm / profile.norm);
      }
    }
  }
  let best: { film: SeedFilm; v: number; coWatched: boolean } | null = null;
  const consider = (film: SeedFilm, v: number, coWatched: boolean) => {
    if (v > 0 && (!best || v > best.v)) best = { film, v, coWatched };
  };
  for (const [film, v] of content) {
    consider(film, v + 0.1 * (options.coWatch.get(film.slot) ?? 0), false);
  }
  for (const [seedSlot, co] of options.coWatch) {
    const film = options.seeds.get(seedSlot);
    if (film && film.weight > 0 && !content.has(film)) consider(film, 0.1 * co, true);
  }
  const found = best as { film: SeedFilm; coWatched: boolean } | null;
  return found ? { film: found.film, coWatched: found.coWatched } : null;
}
