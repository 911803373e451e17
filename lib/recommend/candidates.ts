/**
 * The first of the two stages (docs/recommend.md, "Two stages"): the user's best local picks
 * (lib/recommend/local) as titled candidates for the prompt, and the AI's answer matched back
 * to them by title and year before anything is looked up.
 */
import { titleKey } from "../catalog/title_match.ts";
import type { AppDeps } from "../platform/deps.ts";
import type { Sql } from "../platform/store/mod.ts";
import { localPicks } from "./local/mod.ts";
import type { Candidate } from "./parse_output.ts";
import { CANDIDATE_TITLES } from "./prompt.ts";

/** A local candidate as the prompt names it. */
export interface LocalCandidate {
  catalogId: number;
  title: string;
  year: number;
}

/** The titles and years of `ids` the store knows, in the order of `ids`. */
async function titled(sql: Sql, ids: number[]): Promise<LocalCandidate[]> {
  if (ids.length === 0) return [];
  const rows = await sql.query<{ catalogId: number; title: string; year: number }>(
    `select m.catalog_id as "catalogId", m.title, m.year
       from unnest($1::int[]) with ordinality as u(id, ord)
       join public.movies m on m.catalog_id = u.id
      where m.title <> ''
      order by u.ord`,
    [ids],
  );
  return rows.map((r) => ({
    catalogId: Number(r.catalogId),
    title: r.title,
    year: Number(r.year),
  }));
}

/**
 * The user's top CANDIDATE_TITLES local picks with their titles, best first (what they have
 * watched, dismissed or given 👎 is never among them; My List neither), only what they can
 * stream when their "only what I can stream" switch is on.
 */
export async function localCandidates(
  deps: AppDeps,
  userId: string,
  options: { exclude?: number[] } = {},
): Promise<LocalCandidate[]> {
  // onlyMine left out: the user's saved "only what I can stream" switch decides.
  const picks = await localPicks(deps, userId, {
    limit: CANDIDATE_TITLES,
    exclude: options.exclude ?? [],
  });
  return await titled(deps.store, picks.map((p) => p.catalogId));
}

/**
 * For each of the AI's films, the candidate it names (same title key; the same year, one off,
 * or no year given), else null.
 */
export function matchCandidates(
  answer: Candidate[],
  candidates: LocalCandidate[],
): (number | null)[] {
  const byKey = new Map<string, LocalCandidate[]>();
  for (const c of candidates) {
    const key = titleKey(c.title);
    byKey.set(key, [...(byKey.get(key) ?? []), c]);
  }
  return answer.map((film) => {
    const same = byKey.get(titleKey(film.title)) ?? [];
    const year = film.year;
    const exact = same.find((c) => year === null || c.year === year);
    const near = same.find((c) => year !== null && Math.abs(c.year - year) === 1);
    return (exact ?? near)?.catalogId ?? null;
  });
}
