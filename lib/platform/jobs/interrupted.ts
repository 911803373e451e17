/**
 * Runs a restart cut off (docs/faults.md, "Background jobs"): a run still `running` while no
 * instance holds its job's lease lost its process, so it is marked failed.
 */
import type { AppDeps } from "../deps.ts";
import { isLeaseHeld } from "../kv/lock.ts";
import type { Sql } from "../store/mod.ts";
import type { JobRecords, RunStart } from "./job.ts";

/** What last_error says of a run cut off by a restart. */
export const INTERRUPTED = "interrupted by a restart";

/** Logs the runs just marked failed, if any. */
export function logMarkedFailed(
  deps: Pick<AppDeps, "log">,
  job: Pick<JobRecords<unknown>, "run">,
  ids: string[],
): void {
  if (ids.length === 0) return;
  deps.log({
    level: "warn",
    msg: `${job.run.noun}s marked failed`,
    [`${job.run.idField}s`]: ids,
    reason: INTERRUPTED,
  });
}

/** Marks `job`'s runs a restart cut off failed, unless its lease is held now; returns their ids. */
export async function failInterruptedRuns<P, T extends RunStart>(
  deps: Pick<AppDeps, "store" | "kv" | "clock" | "log">,
  job: JobRecords<P, T>,
): Promise<string[]> {
  const now = deps.clock.now();
  if (await isLeaseHeld(deps.kv, job.lease.key, { clock: deps.clock })) return [];
  // A run another instance starts right after the look at the lease is younger than `now`.
  const ids = await job.runs.failRunning(deps.store, { now, startedBefore: now + 1 });
  logMarkedFailed(deps, job, ids);
  return ids;
}

/**
 * Marks the `running` rows of a job's runs table (`table`, a name from code) failed, all but
 * `keep` and only those started before `startedBefore`; returns their ids.
 */
export async function failRunningRows(
  sql: Sql,
  table: string,
  options: { now: number; keep?: string; startedBefore?: number; reason?: string },
): Promise<string[]> {
  const rows = await sql.query<{ id: string }>(
    `update ${table}
     set status = 'failed', finished_at = $1, last_error = $2
     where status = 'running' and ($3::uuid is null or id <> $3::uuid)
       and ($4::timestamptz is null or started_at < $4::timestamptz)
     returning id`,
    [
      new Date(options.now).toISOString(),
      options.reason ?? INTERRUPTED,
      options.keep ?? null,
      options.startedBefore === undefined ? null : new Date(options.startedBefore).toISOString(),
    ],
  );
  return rows.map((r) => r.id);
}
