/**
 * The shortlist's order (docs/nights.md, "The shortlist"): every member's score of every
 * candidate, ranked by the lowest member's score, so a film one member would hate never ranks
 * above one everybody likes; ties by the mean, then by the candidate's order.
 */

/** One member's score of a film and the shared features ("traits") that drew them to it. */
export interface MemberScore {
  score: number;
  traits: string[];
}

/** A candidate ranked for the group. */
interface RankedFilm {
  catalogId: number;
  lowest: number;
  mean: number;
  /** Each member's score and traits, in the members' order. */
  members: MemberScore[];
}

/**
 * Ranks `candidates` by the lowest of the members' scores (a film a member has no score for
 * counts as 0 for them), then by the mean; the first `size`.
 */
export function rankForGroup(
  candidates: number[],
  scores: Map<number, MemberScore>[],
  size: number,
): RankedFilm[] {
  const ranked = candidates.map((catalogId, order) => {
    const members = scores.map((s) => s.get(catalogId) ?? { score: 0, traits: [] });
    const values = members.map((m) => m.score);
    const lowest = values.length ? Math.min(...values) : 0;
    const mean = values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
    return { catalogId, lowest, mean, members, order };
  });
  ranked.sort((a, b) => b.lowest - a.lowest || b.mean - a.mean || a.order - b.order);
  return ranked.slice(0, size).map(({ order: _order, ...film }) => film);
}
