/** The details job: full details for every film a user has (docs/catalog.md, "The details job"). */
export { DETAILS_LOCK_TTL_MS } from "./job.ts";
export {
  ASK_DELAY_MS,
  createDetailsService,
  type DetailsService,
  failInterruptedDetailsRuns,
  scheduledDetails,
} from "./service.ts";
export { askingAfterSearch } from "./asking.ts";
export type { DetailsRun } from "./runs.ts";
