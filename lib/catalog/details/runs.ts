/**
 * The `details_runs` table: one row per run of the details job, written as it goes, so
 * `GET /api/admin/details-runs` shows progress and a run cut off by a restart shows as failed
 * (as the availability job's runs, docs/availability.md).
 */
import { failRunningRows } from "@/lib/platform/jobs/interrupted.ts";
import type { RunStart } from "@/lib/platform/jobs/job.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";

/** The counters a run records. */
export interface DetailsCounts {
  moviesPlanned: number;
  moviesRefreshed: number;
  calls: number;
  errors: number;
  lastError: string | null;
}

/** One run as the admin route lists it. */
export interface DetailsRun extends DetailsCounts {
  id: string;
  trigger: RunStart;
  status: "running" | "succeeded" | "failed";
  budget: number;
  startedAt: string;
  finishedAt: string | null;
}

const COLUMNS = `id, trigger, status, budget,
  to_char(started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "startedAt",
  to_char(finished_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "finishedAt",
  movies_planned as "moviesPlanned", movies_refreshed as "moviesRefreshed", calls, errors,
  last_error as "lastError"`;

/** Records a new run as `running`. */
export async function insertRun(
  sql: Sql,
  run: { id: string; trigger: RunStart; budget: number; startedAt: number },
): Promise<void> {
  await sql.query(
    `insert into public.details_runs (id, trigger, budget, started_at) values ($1, $2, $3, $4)`,
    [run.id, run.trigger, run.budget, new Date(run.startedAt).toISOString()],
  );
}

/** Writes a run's counters, and with `status` its end. */
export async function writeRun(
  sql: Sql,
  run: DetailsCounts & { id: string; status?: "succeeded" | "failed"; at: number },
): Promise<void> {
  await sql.query(
    `update public.details_runs
     set movies_planned = $2, movies_refreshed = $3, calls = $4, errors = $5, last_error = $6,
       status = coalesce($7, status),
       finished_at = case when $7::text is null then finished_at else $8::timestamptz end
     where id = $1 and (status = 'running' or $7::text is not null)`,
    [
      run.id,
      run.moviesPlanned,
      run.moviesRefreshed,
      run.calls,
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
  return failRunningRows(sql, "public.details_runs", options);
}

/** The last `limit` runs, newest first. */
export async function listRuns(sql: Sql, limit = 20): Promise<DetailsRun[]> {
  const rows = await sql.query<DetailsRun>(
    `select ${COLUMNS} from public.details_runs order by started_at desc, id desc limit $1`,
    [limit],
  );
  return rows.map((r) => ({
    ...r,
    budget: Number(r.budget),
    moviesPlanned: Number(r.moviesPlanned),
    moviesRefreshed: Number(r.moviesRefreshed),
    calls: Number(r.calls),
    errors: Number(r.errors),
  }));
}
