/** The local recommender: picks, scores and "more like this" from stored data only. */
export {
  type LocalDeps,
  type LocalPick,
  type LocalPickOptions,
  localPicks,
  POPULAR_REASON,
  scoreMovies,
} from "./picks.ts";
export { similarMovies } from "./similar.ts";
export { genreName, type PickFilter } from "./filters.ts";
export {
  createLocalRecommendService,
  type LocalRecommendService,
  type SimilarCard,
} from "./service.ts";
