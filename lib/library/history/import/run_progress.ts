/**
 * The writes of a running history import: its progress after each batch with the films it
 * could not match (appended as rows), its end, and a user's cancel.
 */
import type { Sql, Store } from "@/lib/platform/store/mod.ts";
import {
  type FilmCounts,
  getRun,
  type HistoryImportRun,
  type RunCounts,
  type UnmatchedEntry,
} from "./runs.ts";

/** What a batch adds to a running run: its progress, and the films it could not match. */
interface BatchProgress {
  cursor: number;
  progress: number;
  counts: RunCounts;
  films: FilmCounts;
  /** The first 100 unmatched films of the run so far (the run's own answer). */
  firstUnmatched: UnmatchedEntry[];
  /** This batch's unmatched films, appended to the report after the run's earlier ones. */
  unmatched: (UnmatchedEntry & { rows: number })[];
}

/**
 * Writes a running run's progress after a batch and appends its unmatched films, in one
 * transaction; false when the run is no longer running (cancelled, or another instance
 * resumed and finished it), so this one stops.
 */
export function writeProgress(
  sql: Store,
  run: { id: string; userId: string },
  p: BatchProgress,
): Promise<boolean> {
  return sql.transaction(async (tx) => {
    const rows = await tx.query(
      `update public.history_imports
         set cursor = $2, progress = $3, counts = $4::jsonb, films = $5::jsonb, unmatched = $6::jsonb
       where id = $1 and status = 'running' and cursor <= $2
       returning id`,
      [
        run.id,
        p.cursor,
        p.progress,
        JSON.stringify(p.counts),
        JSON.stringify(p.films),
        JSON.stringify(p.firstUnmatched),
      ],
    );
    if (rows.length === 0) return false;
    if (p.unmatched.length > 0) {
      const first = p.films.unmatched - p.unmatched.length + 1;
      await tx.query(
        `insert into public.history_import_unmatched
           (import_id, user_id, ord, title, year, reason, file_rows)
         select $1, $2, $3 + u.i - 1, u.title, u.year, u.reason, u.file_rows
           from unnest($4::text[], $5::int[], $6::text[], $7::int[])
                with ordinality as u(title, year, reason, file_rows, i)
         on conflict (import_id, ord) do nothing`,
        [
          run.id,
          run.userId,
          first,
          p.unmatched.map((u) => u.title),
          p.unmatched.map((u) => u.year),
          p.unmatched.map((u) => u.reason),
          p.unmatched.map((u) => u.rows),
        ],
      );
    }
    return true;
  });
}

/** Ends a run; its units are dropped, as nothing will resume it. */
export async function finishRun(
  sql: Sql,
  id: string,
  end: { status: "succeeded" | "failed"; finishedAt: number; error?: string },
): Promise<void> {
  await sql.query(
    `with ended as (
       update public.history_imports
          set status = $2, finished_at = $3, error = $4, units = '[]'::jsonb,
              progress = case when $2 = 'succeeded' then 1 else progress end
        where id = $1 and status = 'running'
        returning id
     )
     delete from public.history_import_units where import_id = $1`,
    [id, end.status, new Date(end.finishedAt).toISOString(), end.error ?? null],
  );
}

/**
 * Cancels the user's running run `id`: what it applied stays, the rest is not done. Answers
 * the run as it is now, or null when the user has no such run.
 */
export async function cancelRun(
  sql: Sql,
  userId: string,
  id: string,
  at: number,
): Promise<HistoryImportRun | null> {
  await sql.query(
    `with ended as (
       update public.history_imports
          set status = 'cancelled', finished_at = $3, units = '[]'::jsonb
        where id = $1 and user_id = $2 and status = 'running'
        returning id
     )
     delete from public.history_import_units u using ended where u.import_id = ended.id`,
    [id, userId, new Date(at).toISOString()],
  );
  return await getRun(sql, userId, id);
}
