/**
 * "More like this" (docs/recommend.md, "Local picks"): the stored films closest to one film by
 * the same weighted features, plus co-watching with it; never the film itself, only films that
 * share something with it, no external call.
 */
import { Problem } from "@/lib/core/problem.ts";
import { coWatched } from "./co_watch.ts";
import { currentIndex, type FeatureIndex } from "./feature_index.ts";
import { explain } from "./explain.ts";
import { buildProfile, contentScore, coWatchPart, coWatchScore, topScored } from "./model.ts";
import type { LocalDeps, LocalPick } from "./picks.ts";

/** The films most like `catalogId`, best first; 404 `movie_not_found` when it is not stored. */
export async function similarMovies(
  deps: LocalDeps,
  catalogId: number,
  opts: { limit: number; /** The index, when the caller has it already. */ index?: FeatureIndex },
): Promise<LocalPick[]> {
  const index = opts.index ?? await currentIndex(deps.store, { now: deps.clock.now() });
  const target = index.slots.get(catalogId);
  if (target === undefined) {
    throw new Problem(404, "movie_not_found", "No stored movie has this id.");
  }
  const profile = buildProfile(index, [{ slot: target, weight: 1 }]);
  const co = new Map<number, number>();
  for (const p of await coWatched(deps.store, [catalogId], { userId: null })) {
    co.set(p.other, coWatchScore([coWatchPart(1, p.users)]));
  }
  const related = (slot: number) =>
    contentScore(index, profile, slot) + (co.get(index.ids[slot]) ?? 0);
  const picks = topScored(index, {
    limit: opts.limit,
    keep: (slot) => slot !== target && related(slot) > 0,
    score: (slot) => related(slot) + index.prior[slot],
  });
  return picks.map((p) => {
    const id = index.ids[p.slot];
    const { reasons, traits } = explain(index, {
      slot: p.slot,
      profile,
      film: null,
      coWatched: (co.get(id) ?? 0) > 0,
      similar: true,
    });
    return { catalogId: id, score: Math.round(p.score * 1e6) / 1e6, reasons, traits };
  });
}
