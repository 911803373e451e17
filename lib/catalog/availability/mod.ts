/** The availability job: refreshes My List movies' providers and notifies new streaming. */
export { AVAILABILITY_LOCK_KEY, AVAILABILITY_LOCK_TTL_MS } from "./job.ts";
export {
  type AvailabilityService,
  availabilityStartSchema,
  createAvailabilityService,
  failInterruptedAvailabilityRuns,
  scheduledAvailability,
} from "./service.ts";
export type { AvailabilityRun } from "./runs.ts";
