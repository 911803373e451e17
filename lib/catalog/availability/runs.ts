/**
 * The `availability_runs` table: one row per run of the availability job, written as it goes,
 * so `GET /api/admin/availability-runs` shows progress and a run cut off by a restart shows as
 * failed (as the catalog import's runs, docs/catalog_import.md).
 */
import { failRunningRows } from "@/lib/platform/jobs/interrupted.ts";
import type { JobTrigger } from "@/lib/platform/jobs/job.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";

/** What started a run. */
export type RunTrigger = JobTrigger;

/** The counters a run records. */
export interface AvailabilityCounts {
  moviesPlanned: number;
  moviesRefreshed: number;
  calls: number;
  notifications: number;
  mails: number;
  errors: number;
  lastError: string | null;
}

/** One run as the admin route lists it. */
export interface AvailabilityRun extends AvailabilityCounts {
  id: string;
  trigger: RunTrigger;
  status: "running" | "succeeded" | "failed";
  budget: number;
  startedAt: string;
  finishedAt: string | null;
}

const COLUMNS = `id, trigger, status, budget,
  to_char(started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "startedAt",
  to_char(finished_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "finishedAt",
  movies_planned as "moviesPlanned", movies_refreshed as "moviesRefreshed", calls,
  notifications, mails, errors, last_error as "lastError"`;

/** Records a new run as `running`. */
export async function insertRun(
  sql: Sql,
  run: { id: string; trigger: RunTrigger; budget: number; startedAt: number },
): Promise<void> {
  await sql.query(
    `insert into public.availability_runs (id, trigger, budget, started_at)
     values ($1, $2, $3, $4)`,
    [run.id, run.trigger, run.budget, new Date(run.startedAt).toISOString()],
  );
}

/** Writes a run's counters, and with `status` its end. */
export async function writeRun(
  sql: Sql,
  run: AvailabilityCounts & { id: string; status?: "succeeded" | "failed"; at: number },
): Promise<void> {
  await sql.query(
    `update public.availability_runs
     set movies_planned = $2, movies_refreshed = $3, calls = $4, notifications = $5, mails = $6,
       errors = $7, last_error = $8, status = coalesce($9, status),
       finished_at = case when $9::text is null then finished_at else $10::timestamptz end
     where id = $1 and (status = 'running' or $9::text is not null)`,
    [
      run.id,
      run.moviesPlanned,
      run.moviesRefreshed,
      run.calls,
      run.notifications,
      run.mails,
      run.errors,
      run.lastError,
      run.status ?? null,
      new Date(run.at).toISOString(),
    ],
  );
}

/** Marks `running` runs failed (their process is gone), all but `keep`. Returns their ids. */
export function failRunningRuns(
  sql: Sql,
  options: { now: number; keep?: string; startedBefore?: number },
): Promise<string[]> {
  return failRunningRows(sql, "public.availability_runs", options);
}

/** The last `limit` runs, newest first. */
export async function listRuns(sql: Sql, limit = 20): Promise<AvailabilityRun[]> {
  const rows = await sql.query<AvailabilityRun>(
    `select ${COLUMNS} from public.availability_runs
     order by started_at desc, id desc limit $1`,
    [limit],
  );
  return rows.map((r) => ({
    ...r,
    budget: Number(r.budget),
    moviesPlanned: Number(r.moviesPlanned),
    moviesRefreshed: Number(r.moviesRefreshed),
    calls: Number(r.calls),
    notifications: Number(r.notifications),
    mails: Number(r.mails),
    errors: Number(r.errors),
  }));
}
