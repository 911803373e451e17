/**
 * The reasons of local picks (docs/recommend.md, "Local picks"): for each pick the user's film
 * that added most through telling features or co-watching, named with its title (read once and
 * kept with the user's cached taste), then the shared features, by lib/recommend/local/explain.ts.
 */
import type { Store } from "@/lib/platform/store/mod.ts";
import { type FeatureIndex, featuresOf } from "./feature_index.ts";
import { explain, isTelling, type SeedFilm, strongestFilm } from "./explain.ts";
import type { Profile } from "./model.ts";
import type { Taste } from "./taste.ts";

/** One local pick. */
export interface LocalPick {
  catalogId: number;
  score: number;
  reasons: string[];
  /** The shared features that drove it, without the user's films ("heist films"). */
  traits: string[];
}

/** The reason of a pick chosen by popularity alone. */
export const POPULAR_REASON = "Among the most popular films stored here";

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** A user's weighed taste, ready to score and explain (lib/recommend/local/picks.ts builds it). */
export interface Scorer {
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
export async function explained(
  store: Store,
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
  const titles = await titlesOf(store, s, [
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
