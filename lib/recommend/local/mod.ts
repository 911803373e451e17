/** The local recommender: picks, scores and "more like this" from stored data only. */
export {
  type LocalDeps,
  type LocalPick,
  type LocalPickOptions,
  localPicks,
  scoreMovies,
} from "./picks.ts";
export { POPULAR_REASON } from "./pick_reasons.ts";
export { similarMovies } from "./similar.ts";
export { genreName, type PickFilter } from "./filters.ts";
export {
  createLocalRecommendService,
  type LocalRecommendService,
  type SimilarCard,
} from "./service.ts";
