/**
 * Candidate titles to catalog ids (docs/recommend.md): the movies store first (title or
 * original title, with the year, case- and accent-insensitive), then the catalog search
 * through the shared external window. A title that matches nothing well stays unresolved.
 */
import { rememberSearchRows } from "../catalog/remember_search_rows.ts";
import { hasTitleKey, rowYear, storedTitleMatches, titleKey } from "../catalog/title_match.ts";
import type { Logger } from "../core/log.ts";
import type { Sql } from "../platform/store/mod.ts";
import type { SearchRowFields } from "../catalog/normalize.ts";
import type { Candidate } from "./parse_output.ts";

/** A catalog search result as the resolver reads it: the catalog's own type for search rows. */
type SearchHit = SearchRowFields;

/** The catalog search `resolveTitles` falls back to. */
export type CandidateSearch = (
  title: string,
  options: { year?: number; wait: true },
) => Promise<{ results: SearchHit[] }>;

const SEARCHES_AT_ONCE = 4;

interface Match {
  id: number;
  year: number;
  popularity: number;
}

/** Ranks a match by year: exact, one year off, unknown; null when the years disagree. */
function yearRank(wanted: number | null, year: number): number | null {
  if (!wanted || !year) return 2;
  const off = Math.abs(wanted - year);
  return off === 0 ? 0 : off === 1 ? 1 : null;
}

function best(wanted: number | null, matches: Match[]): number | null {
  let chosen: { rank: number; match: Match } | null = null;
  for (const match of matches) {
    const rank = yearRank(wanted, match.year);
    if (rank === null) continue;
    if (
      !chosen || rank < chosen.rank ||
      (rank === chosen.rank && match.popularity > chosen.match.popularity)
    ) chosen = { rank, match };
  }
  return chosen?.match.id ?? null;
}

async function fromStore(sql: Sql, candidates: Candidate[]): Promise<(number | null)[]> {
  const byIndex = new Map<number, Match[]>();
  for (const m of await storedTitleMatches(sql, candidates.map((c) => c.title))) {
    const list = byIndex.get(m.index) ?? [];
    list.push({ id: m.catalogId, year: m.year, popularity: m.popularity });
    byIndex.set(m.index, list);
  }
  return candidates.map((c, i) => best(c.year, byIndex.get(i) ?? []));
}

async function fromSearch(
  search: CandidateSearch,
  candidate: Candidate,
): Promise<SearchHit | null> {
  const key = titleKey(candidate.title);
  if (!key) return null;
  const { results } = await search(candidate.title, {
    ...(candidate.year ? { year: candidate.year } : {}),
    wait: true,
  });
  const matches = results
    .filter((r) => hasTitleKey(r, key))
    // Search order is relevance: earlier rows win ties.
    .map((r, i) => ({ id: r.id, year: rowYear(r), popularity: -i }));
  const id = best(candidate.year, matches);
  return results.find((r) => r.id === id) ?? null;
}

/** Resolves each candidate to a catalog id (null when unresolved), in candidate order. */
export async function resolveTitles(
  candidates: Candidate[],
  options: { sql: Sql; search: CandidateSearch; log?: Logger; now: number },
): Promise<(number | null)[]> {
  if (candidates.length === 0) return [];
  const ids = await fromStore(options.sql, candidates);
  const missing = ids.flatMap((id, i) => (id === null ? [i] : []));
  const hits: SearchHit[] = [];
  for (let start = 0; start < missing.length; start += SEARCHES_AT_ONCE) {
    await Promise.all(
      missing.slice(start, start + SEARCHES_AT_ONCE).map(async (i) => {
        try {
          const hit = await fromSearch(options.search, candidates[i]);
          ids[i] = hit?.id ?? null;
          if (hit) hits.push(hit);
        } catch (error) {
          // A search failure leaves this title unresolved; the round asks for others.
          options.log?.({
            level: "warn",
            msg: "recommendation title search failed",
            error: error instanceof Error ? error.message.slice(0, 200) : String(error),
          });
        }
      }),
    );
  }
  // A pick found by the search is stored at least as a light row, so a later prompt can name
  // it (a dismissed pick is listed by its title from the store).
  await rememberSearchRows(options.sql, hits, { now: options.now });
  return ids;
}
