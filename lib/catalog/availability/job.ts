/**
 * The availability job as a background job (lib/platform/jobs/job.ts): one KV lease across every
 * instance, owned by the running run's id, and its runs in `availability_runs`.
 */
import type { KvKey } from "@/lib/platform/kv/kv.ts";
import type { JobRecords } from "@/lib/platform/jobs/job.ts";
import { Problem } from "@/lib/core/problem.ts";
import { failRunningRuns, insertRun } from "./runs.ts";

/** The KV key of the job's lease. */
export const AVAILABILITY_LOCK_KEY: KvKey = ["availability_lock"];
/** How long the lease lasts without a renewal. */
export const AVAILABILITY_LOCK_TTL_MS = 30_000;

/**
 * What a run is given beyond the job's own fields: its call budget, and `force` (refresh movies
 * fetched in the last 20 hours too).
 */
export type AvailabilityParams = { budget: number; force: boolean };

/** The job's records: what starting a run and recovering after a restart need. */
export const availabilityRecords: JobRecords<AvailabilityParams> = {
  name: "availability",
  run: { noun: "availability run", idField: "runId" },
  lease: { key: AVAILABILITY_LOCK_KEY, ttlMs: AVAILABILITY_LOCK_TTL_MS },
  runs: { insert: insertRun, failRunning: failRunningRuns },
  busy: () => new Problem(409, "availability_running", "An availability run is already running."),
};
