/**
 * The unique match of a title and year (docs/history.md, "Matching and applying"), asked by the
 * history import and the webhook receiver alike: the movies store first (title or original
 * title, the same year, or any year when none is given), then the catalog search with the year
 * and then the year before and after. Only one movie counts: two or more are `ambiguous`, none
 * `not_found`. What matches a title is title_match.ts's; the recommender chooses its own way.
 */
import type { Sql } from "../platform/store/mod.ts";
import { hasTitleKey, rowYear, storedTitleMatches, titleKey } from "./title_match.ts";
import type { SearchRow } from "./types.ts";

/** A title to match and, when known, its release year. */
interface WantedTitle {
  title: string;
  year?: number;
}

/** Why a title has no unique match. */
export type NoMatch = "not_found" | "ambiguous";

/** A unique match: the catalog id, and the search row it came from when the search found it. */
export type UniqueMatch = { id: number; found?: SearchRow } | { reason: NoMatch };

/** The catalog search the match asks: a title, with the year when one is given. */
export type TitleSearch = (title: string, year: number | undefined) => Promise<SearchRow[]>;

function decide(ids: Set<number>): { id: number } | { reason: NoMatch } | null {
  if (ids.size === 1) return { id: [...ids][0] };
  return ids.size > 1 ? { reason: "ambiguous" } : null;
}

/**
 * The store's unique match of each of `wanted`, in one query; null where the store has no
 * unique answer, and for a null in `wanted` (a title the caller does not ask about).
 */
export async function uniqueStoredMatches(
  sql: Sql,
  wanted: (WantedTitle | null)[],
): Promise<(number | null)[]> {
  const titles = wanted.map((w) => w?.title ?? "");
  const byIndex = new Map<number, Set<number>>();
  for (const m of await storedTitleMatches(sql, titles)) {
    const year = wanted[m.index]?.year;
    if (year !== undefined && m.year !== year) continue;
    const set = byIndex.get(m.index) ?? new Set();
    set.add(m.catalogId);
    byIndex.set(m.index, set);
  }
  return wanted.map((_, i) => {
    const ids = byIndex.get(i);
    return ids?.size === 1 ? [...ids][0] : null;
  });
}

/** The search's unique match of `wanted`: the year, then a year either side. */
export async function uniqueSearchMatch(
  wanted: WantedTitle,
  search: TitleSearch,
): Promise<UniqueMatch> {
  const key = titleKey(wanted.title);
  if (!key) return { reason: "not_found" };
  const exact = (rows: SearchRow[]) => rows.filter((r) => hasTitleKey(r, key));
  const rows = new Map<number, SearchRow>();
  const pick = (ids: Set<number>) => {
    const chosen = decide(ids);
    return chosen && "id" in chosen ? { id: chosen.id, found: rows.get(chosen.id) } : chosen;
  };
  const first = exact(await search(wanted.title, wanted.year));
  for (const r of first) rows.set(r.id, r);
  const year = wanted.year;
  if (year === undefined) {
    return pick(new Set(first.map((r) => r.id))) ?? { reason: "not_found" };
  }
  // The year's own release first; a title TMDB lists under that year for another release next.
  const sameYear = pick(new Set(first.filter((r) => rowYear(r) === year).map((r) => r.id)));
  if (sameYear) return sameYear;
  const anyYear = pick(new Set(first.map((r) => r.id)));
  if (anyYear) return anyYear;
  const near = (await Promise.all([year - 1, year + 1].map((y) => search(wanted.title, y))))
    .flatMap(exact)
    .filter((r) => Math.abs(rowYear(r) - year) <= 1);
  for (const r of near) rows.set(r.id, r);
  return pick(new Set(near.map((r) => r.id))) ?? { reason: "not_found" };
}
