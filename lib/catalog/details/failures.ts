/**
 * The details job's memory of failed films (docs/catalog.md, "The details job", "Failures"): a
 * film whose fetch failed is skipped until its `retry_at`, one hour after its first failure,
 * doubling with each failure in a row, at most 7 days; TMDB's 404 (no such movie) starts at a
 * day. Before, every run (every 10 minutes) spent one call on each such film, forever.
 */
import { Problem } from "@/lib/core/problem.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";

const HOUR_MS = 3_600_000;
/** The first wait after a failure. */
const FIRST_BACKOFF_MS = HOUR_MS;
/** The first wait after TMDB's 404: a film it says does not exist rarely comes back soon. */
const NOT_FOUND_BACKOFF_MS = 24 * HOUR_MS;
/** The longest wait: a film is tried at least once a week. */
const MAX_BACKOFF_MS = 7 * 24 * HOUR_MS;

/**
 * Failures that say nothing about the film (the window or TMDB busy, the budget spent, no TMDB
 * key): the film is tried again at the next run, not backed off.
 */
const NOT_THE_FILM = new Set([
  "budget_spent",
  "upstream_busy",
  "rate_limited",
  "catalog_not_configured",
]);

/** Whether `error` is remembered against the film it fetched. */
export function isFilmFailure(error: unknown): boolean {
  return !(error instanceof Problem && NOT_THE_FILM.has(error.code));
}

const RECORD_SQL = `insert into public.details_failures as f
    (catalog_id, failures, failed_at, retry_at, last_error)
  values ($1, 1, $2, $2::timestamptz + make_interval(secs => $3::double precision / 1000), $5)
  on conflict (catalog_id) do update set
    failures = f.failures + 1,
    failed_at = excluded.failed_at,
    -- The n-th failure in a row waits first * 2^(n - 1), at most the cap (the exponent bounded
    -- so it stays finite).
    retry_at = excluded.failed_at + make_interval(secs => least(
      $3::double precision * power(2::double precision, least(f.failures, 20)),
      $4::double precision) / 1000),
    last_error = excluded.last_error`;

/** Remembers a failed fetch of `catalogId` at `at` (ms), one more in a row. */
export async function recordFailure(
  sql: Sql,
  failure: { catalogId: number; at: number; notFound: boolean; error: string },
): Promise<void> {
  await sql.query(RECORD_SQL, [
    failure.catalogId,
    new Date(failure.at).toISOString(),
    failure.notFound ? NOT_FOUND_BACKOFF_MS : FIRST_BACKOFF_MS,
    MAX_BACKOFF_MS,
    failure.error,
  ]);
}

/** Forgets `catalogId`'s failures once a fetch of it succeeded. */
export async function clearFailure(sql: Sql, catalogId: number): Promise<void> {
  await sql.query(`delete from public.details_failures where catalog_id = $1`, [catalogId]);
}
