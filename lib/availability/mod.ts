/** The availability job: refreshes My List movies' providers and notifies new streaming. */
export { AVAILABILITY_LOCK_KEY, AVAILABILITY_LOCK_TTL_MS } from "./job.ts";
export {
  type AvailabilityService,
  createAvailabilityService,
  failInterruptedAvailabilityRuns,
  scheduledAvailability,
  type StartedAvailabilityRun,
} from "./service.ts";
export { JOB_CALLS_PER_SECOND, pacedWindow } from "./paced_window.ts";
export type { AvailabilityOutcome } from "./run.ts";
export type { AvailabilityRun } from "./runs.ts";
