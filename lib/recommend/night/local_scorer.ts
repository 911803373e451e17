/** The shortlist's scorer on the local recommender (lib/recommend/local, docs/recommend.md). */
import { type LocalDeps, localPicks, scoreMovies } from "../local/mod.ts";
import type { NightScorer } from "./shortlist.ts";

/** Each member's picks and scores from their own local model. */
export function localScorer(deps: LocalDeps): NightScorer {
  return {
    async picks(userId, { limit, exclude }) {
      // onlyMine false: the night's own onlyMine (any member's services) filters afterwards, not
      // the member's saved switch, which covers their services alone.
      const picks = await localPicks(deps, userId, { limit, exclude, onlyMine: false });
      return picks.map((p) => p.catalogId);
    },
    async scores(userId, catalogIds) {
      const scored = await scoreMovies(deps, userId, { catalogIds });
      return new Map(scored.map((s) => [s.catalogId, { score: s.score, traits: s.traits }]));
    },
  };
}
