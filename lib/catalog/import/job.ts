/**
 * The catalog import as a background job (lib/platform/jobs/job.ts): its lease, one KV key shared by
 * every instance and owned by the running import's id, and its runs in `catalog_imports`.
 */
import type { Kv, KvKey } from "@/lib/platform/kv/kv.ts";
import type { Clock } from "@/lib/core/clock.ts";
import type { JobRecords } from "@/lib/platform/jobs/job.ts";
import { type JobLease, takeJobLease } from "@/lib/platform/jobs/lease.ts";
import type { HeldLeases } from "@/lib/platform/kv/lock.ts";
import { Problem } from "@/lib/core/problem.ts";
import { failRunningRuns, insertRun } from "./runs.ts";

/** The KV key of the import lease. */
export const IMPORT_LOCK_KEY: KvKey = ["catalog_import_lock"];

/** How long the lease lasts without a renewal. */
export const IMPORT_LOCK_TTL_MS = 30_000;

/** What a run is given beyond the job's own fields: the popular pages to read. */
export type ImportParams = { pages: number };

/** The import's records: what starting a run and recovering after a restart need. */
export const catalogImportRecords: JobRecords<ImportParams> = {
  name: "catalog import",
  run: { noun: "catalog import", idField: "importId" },
  lease: { key: IMPORT_LOCK_KEY, ttlMs: IMPORT_LOCK_TTL_MS },
  runs: { insert: insertRun, failRunning: failRunningRuns },
  busy: () => new Problem(409, "import_running", "A catalog import is already running."),
};

/** Takes the import lease for `importId`; null while another import holds it. */
export function takeImportLock(
  kv: Kv,
  importId: string,
  options: { clock: Clock; ttlMs?: number; held?: HeldLeases },
): Promise<JobLease | null> {
  const ttlMs = options.ttlMs ?? IMPORT_LOCK_TTL_MS;
  return takeJobLease(kv, IMPORT_LOCK_KEY, { ...options, ttlMs, owner: importId });
}
