/**
 * The `catalog_imports` table: one row per import run, written as the run goes, so
 * `GET /api/admin/catalog-import` shows progress and a run cut off by a restart can be told apart.
 */
import type { JobTrigger } from "@/lib/platform/jobs/job.ts";
import { failRunningRows } from "@/lib/platform/jobs/interrupted.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";

/** What started a run. */
export type ImportTrigger = JobTrigger;

/** Where a run stands. */
type ImportStatus = "running" | "succeeded" | "failed";

/** The counters a run records as it goes. */
export interface ImportCounts {
  moviesSeen: number;
  moviesUpserted: number;
  detailsFetched: number;
  errors: number;
  lastError: string | null;
}

/** One run as `GET /api/admin/catalog-import` lists it. */
export interface CatalogImportRun extends ImportCounts {
  id: string;
  trigger: ImportTrigger;
  status: ImportStatus;
  startedAt: string;
  finishedAt: string | null;
  pages: number;
}

interface RunRow {
  id: string;
  trigger: ImportTrigger;
  status: ImportStatus;
  pages: number;
  started_at: Date | string;
  finished_at: Date | string | null;
  movies_seen: number;
  movies_upserted: number;
  details_fetched: number;
  errors: number;
  last_error: string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

function toRun(row: RunRow): CatalogImportRun {
  return {
    id: row.id,
    trigger: row.trigger,
    status: row.status,
    startedAt: iso(row.started_at),
    finishedAt: row.finished_at === null ? null : iso(row.finished_at),
    pages: row.pages,
    moviesSeen: row.movies_seen,
    moviesUpserted: row.movies_upserted,
    detailsFetched: row.details_fetched,
    errors: row.errors,
    lastError: row.last_error,
  };
}

/** Records a new run as `running`. */
export async function insertRun(
  sql: Sql,
  run: { id: string; trigger: ImportTrigger; pages: number; startedAt: number },
): Promise<void> {
  await sql.query(
    `insert into public.catalog_imports (id, trigger, status, pages, started_at)
     values ($1, $2, 'running', $3, $4)`,
    [run.id, run.trigger, run.pages, new Date(run.startedAt)],
  );
}

/** Writes a running run's counters; a run already finished (or failed by another) is left alone. */
export async function writeProgress(
  sql: Sql,
  progress: ImportCounts & { id: string },
): Promise<void> {
  const { id, ...counts } = progress;
  await sql.query(
    `update public.catalog_imports
     set movies_seen = $2, movies_upserted = $3, details_fetched = $4, errors = $5, last_error = $6
     where id = $1 and status = 'running'`,
    [
      id,
      counts.moviesSeen,
      counts.moviesUpserted,
      counts.detailsFetched,
      counts.errors,
      counts
        .lastError,
    ],
  );
}

/** Writes a run's final counters and status. */
export async function finishRun(
  sql: Sql,
  end: ImportCounts & { id: string; status: "succeeded" | "failed"; finishedAt: number },
): Promise<void> {
  const { id } = end;
  await sql.query(
    `update public.catalog_imports
     set status = $2, finished_at = $3, movies_seen = $4, movies_upserted = $5,
       details_fetched = $6, errors = $7, last_error = $8
     where id = $1`,
    [
      id,
      end.status,
      new Date(end.finishedAt),
      end.moviesSeen,
      end.moviesUpserted,
      end.detailsFetched,
      end.errors,
      end.lastError,
    ],
  );
}

/**
 * Marks `running` runs failed (their process is gone): all but `keep`, and only those started
 * before `startedBefore` when given, so a run that began after the caller looked at the lock is
 * left alone. Returns their ids.
 */
/** Marks `running` runs failed (their process is gone), all but `keep`. Returns their ids. */
export function failRunningRuns(
  sql: Sql,
  options: { now: number; keep?: string; startedBefore?: number; reason?: string },
): Promise<string[]> {
  return failRunningRows(sql, "public.catalog_imports", options);
}

/** The last `limit` runs, newest first. */
export async function listRuns(sql: Sql, limit = 20): Promise<CatalogImportRun[]> {
  const rows = await sql.query<RunRow>(
    `select id, trigger, status, pages, started_at, finished_at, movies_seen, movies_upserted,
       details_fetched, errors, last_error
     from public.catalog_imports
     order by started_at desc, id desc
     limit $1`,
    [limit],
  );
  return rows.map(toRun);
}
