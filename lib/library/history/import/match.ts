/**
 * Matching a unit to a catalog id (docs/history.md): a TMDB id from the file as it is; else the
 * catalog's unique match of title and year (lib/catalog/unique_match.ts: the movies store, then
 * the search with the year and a year either side). A title too long to be one is never looked
 * up: it is unmatched, `invalid_row`.
 */
import {
  type NoMatch,
  type TitleSearch,
  type UniqueMatch,
  uniqueSearchMatch,
  uniqueStoredMatches,
} from "@/lib/catalog/unique_match.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";
import type { ImportUnit } from "./units.ts";

/** Why a unit did not match; `invalid_row` when its title is too long to be one. */
export type UnmatchedReason = NoMatch | "invalid_row";

/** A match: the catalog id, and the search row it came from when it came from the search. */
export type MatchResult = UniqueMatch | { reason: "invalid_row" };

/**
 * The store's matches of `units` named by title (not by TMDB id, not invalid), in one query;
 * null where the store has no unique answer.
 */
export function matchInStore(sql: Sql, units: ImportUnit[]): Promise<(number | null)[]> {
  return uniqueStoredMatches(
    sql,
    units.map((u) => (u.tmdbId === undefined && !u.invalid ? u : null)),
  );
}

/** Matches one unit through the search: the year, then a year either side. */
export function matchBySearch(unit: ImportUnit, search: TitleSearch): Promise<MatchResult> {
  if (unit.invalid) return Promise.resolve({ reason: "invalid_row" });
  return uniqueSearchMatch(unit, search);
}
