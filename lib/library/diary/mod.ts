/** The diary: one entry per viewing, the year in review, and the queue of what to rate. */
export { createDiaryService } from "./service.ts";
export type { DiaryService } from "./service.ts";
export { logViewing } from "./log_viewing.ts";
export type { NewViewing } from "./log_viewing.ts";
export type { DiaryEntry } from "./viewing.ts";
export type { UnratedMovie } from "./read.ts";
export { readYearStats, type YearStats } from "./stats.ts";
export { logViewings } from "./log_many.ts";
export { rateWatched } from "./rate_watched.ts";
export { syncMovies } from "./sync.ts";
export type { YearReview } from "./review.ts";
