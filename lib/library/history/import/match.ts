/**
 * Matching a unit to a catalog id (docs/history.md): a TMDB id from the file as it is;
 * else title and year in the movies store; else the catalog search with the year, then the
 * year before and after. Only a unique best match (exact normalised title or original
 * title) counts; anything else is unmatched, `not_found` or `ambiguous`.
 */
import type { SearchRow } from "../../../catalog/types.ts";
import {
  hasTitleKey,
  rowYear,
  storedTitleMatches,
  titleKey,
} from "../../../catalog/title_match.ts";
import type { Sql } from "../../../platform/store/mod.ts";
import type { ImportUnit } from "./units.ts";

/** Why a unit did not match; `invalid_row` when its title is too long to be one. */
export type UnmatchedReason = "not_found" | "ambiguous" | "invalid_row";

/** A match: the catalog id, and the search row it came from when it came from the search. */
export type MatchResult =
  | { id: number; found?: SearchRow }
  | { reason: UnmatchedReason };

/** The catalog search through the shared window, waiting for a place (`wait: true`). */
export type UnitSearch = (title: string, year: number | undefined) => Promise<SearchRow[]>;

function decide(ids: Set<number>): { id: number } | { reason: UnmatchedReason } | null {
  if (ids.size === 1) return { id: [...ids][0] };
  return ids.size > 1 ? { reason: "ambiguous" } : null;
}

/**
 * The store's matches of `units` (title or original title and the same year, or any year
 * when the unit has none), in one query; null where the store has no unique answer.
 */
export async function matchInStore(sql: Sql, units: ImportUnit[]): Promise<(number | null)[]> {
  const wanted = units.map((u) => (u.tmdbId === undefined && !u.invalid ? u.title : ""));
  const byIndex = new Map<number, Set<number>>();
  for (const m of await storedTitleMatches(sql, wanted)) {
    const year = units[m.index].year;
    if (year !== undefined && m.year !== year) continue;
    const set = byIndex.get(m.index) ?? new Set();
    set.add(m.catalogId);
    byIndex.set(m.index, set);
  }
  return units.map((_, i) => {
    const ids = byIndex.get(i);
    return ids?.size === 1 ? [...ids][0] : null;
  });
}

/** Matches one unit through the search: the year, then a year either side. */
export async function matchBySearch(unit: ImportUnit, search: UnitSearch): Promise<MatchResult> {
  if (unit.invalid) return { reason: "invalid_row" };
  const key = titleKey(unit.title);
  if (!key) return { reason: "not_found" };
  const exact = (rows: SearchRow[]) => rows.filter((r) => hasTitleKey(r, key));
  const rows = new Map<number, SearchRow>();
  const pick = (ids: Set<number>) => {
    const chosen = decide(ids);
    return chosen && "id" in chosen ? { id: chosen.id, found: rows.get(chosen.id) } : chosen;
  };
  const first = exact(await search(unit.title, unit.year));
  for (const r of first) rows.set(r.id, r);
  if (unit.year === undefined) {
    return pick(new Set(first.map((r) => r.id))) ?? { reason: "not_found" };
  }
  // The year's own release first; a title TMDB lists under that year for another release next.
  const sameYear = pick(new Set(first.filter((r) => rowYear(r) === unit.year).map((r) => r.id)));
  if (sameYear) return sameYear;
  const anyYear = pick(new Set(first.map((r) => r.id)));
  if (anyYear) return anyYear;
  const near = (await Promise.all([unit.year - 1, unit.year + 1].map((y) => search(unit.title, y))))
    .flatMap(exact)
    .filter((r) => Math.abs(rowYear(r) - unit.year!) <= 1);
  for (const r of near) rows.set(r.id, r);
  return pick(new Set(near.map((r) => r.id))) ?? { reason: "not_found" };
}
