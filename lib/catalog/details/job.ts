/**
 * The details job as a background job (lib/platform/jobs/job.ts): one KV lease across every
 * instance, owned by the running run's id, and its runs in `details_runs`.
 */
import type { KvKey } from "@/lib/platform/kv/kv.ts";
import type { JobRecords, RunStart } from "@/lib/platform/jobs/job.ts";
import { Problem } from "@/lib/core/problem.ts";
import { failRunningRuns, insertRun } from "./runs.ts";

/** The KV key of the job's lease. */
const DETAILS_LOCK_KEY: KvKey = ["details_lock"];
/** How long the lease lasts without a renewal. */
export const DETAILS_LOCK_TTL_MS = 30_000;

/** What a run is given beyond the job's own fields: its call budget. */
export type DetailsParams = { budget: number };

/** The job's records: what starting a run and recovering after a restart need. */
export const detailsRecords: JobRecords<DetailsParams, RunStart> = {
  name: "details",
  run: { noun: "details run", idField: "runId" },
  lease: { key: DETAILS_LOCK_KEY, ttlMs: DETAILS_LOCK_TTL_MS },
  runs: { insert: insertRun, failRunning: failRunningRuns },
  busy: () => new Problem(409, "details_running", "A details run is already running."),
};
