/**
 * The `history_imports` table: a user's import runs with their counts, the unmatched report
 * and, for resumption, the units still to apply and the cursor of those applied.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";
import type { UnmatchedReason } from "./match.ts";
import type { ImportFormat } from "./rows.ts";
import type { ImportUnit } from "./units.ts";

/** The counts of a run (docs/history.md). */
export interface RunCounts {
  rows: number;
  matched: number;
  added: number;
  updated: number;
  skipped: number;
  unmatched: number;
  /** Of `skipped`, present when any: rows past the watched list's or My List's limit (docs/entries.md). */
  listFull?: number;
  /**
   * Present when any: viewings of the file not logged in the diary, past a film's (1,000) or the
   * diary's (200,000) cap (docs/diary.md); not rows, and not in `skipped`.
   */
  tooManyViewings?: number;
}

/** Films of the file (one per movie, however many rows name it): the counts the page shows. */
export interface FilmCounts {
  total: number;
  matched: number;
  unmatched: number;
}

/** One unmatched movie of the report. */
export interface UnmatchedEntry {
  title: string;
  year: number | null;
  reason: UnmatchedReason;
}

/** A run as `GET /api/import/:id` shows it. */
export interface HistoryImportRun {
  id: string;
  status: "running" | "succeeded" | "failed" | "cancelled";
  format: ImportFormat;
  startedAt: string;
  finishedAt: string | null;
  progress: number;
  counts: RunCounts;
  films: FilmCounts;
  /** The first 100 unmatched films; the rest through GET /api/import/:id/unmatched. */
  unmatched: UnmatchedEntry[];
}

/** Unmatched films a run's own answer carries. */
export const UNMATCHED_IN_RUN = 100;

/** A run with what resuming it needs. */
export interface StoredRun extends HistoryImportRun {
  userId: string;
  units: ImportUnit[];
  cursor: number;
}

/** Counts of a run that has done nothing yet. */
export function emptyCounts(rows = 0): RunCounts {
  return { rows, matched: 0, added: 0, updated: 0, skipped: 0, unmatched: 0 };
}

const COLUMNS = `id, status, format, started_at, finished_at, progress, counts, films, unmatched`;

const iso = (value: unknown) => new Date(value as string).toISOString();
const json = <T>(value: unknown): T => (typeof value === "string" ? JSON.parse(value) : value) as T;

function toRun(r: Record<string, unknown>): HistoryImportRun {
  return {
    id: String(r.id),
    status: r.status as HistoryImportRun["status"],
    format: r.format as ImportFormat,
    startedAt: iso(r.started_at),
    finishedAt: r.finished_at === null ? null : iso(r.finished_at),
    progress: Number(r.progress),
    counts: { ...emptyCounts(), ...json<RunCounts>(r.counts) },
    films: { total: 0, matched: 0, unmatched: 0, ...json<Partial<FilmCounts>>(r.films) },
    unmatched: json<UnmatchedEntry[]>(r.unmatched).slice(0, UNMATCHED_IN_RUN),
  };
}

/**
 * Records a new running run; false when the user has one running already (the partial
 * unique index refuses a second).
 */
export async function insertRun(
  sql: Sql,
  run: Omit<StoredRun, "status" | "finishedAt" | "progress" | "unmatched" | "cursor" | "units">,
): Promise<boolean> {
  try {
    await sql.query(
      `insert into public.history_imports
         (id, user_id, status, format, started_at, progress, counts, films)
       values ($1, $2, 'running', $3, $4, 0, $5::jsonb, $6::jsonb)`,
      [
        run.id,
        run.userId,
        run.format,
        run.startedAt,
        JSON.stringify(run.counts),
        JSON.stringify(run.films),
      ],
    );
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === "23505") return false;
    throw error;
  }
}

/** The user's runs, newest first (at most 50). */
export async function listRuns(sql: Sql, userId: string): Promise<HistoryImportRun[]> {
  const rows = await sql.query(
    `select ${COLUMNS} from public.history_imports where user_id = $1
     order by started_at desc, id desc limit 50`,
    [userId],
  );
  return rows.map(toRun);
}

/** The user's run `id`, or null (another user's run is null too). */
export async function getRun(
  sql: Sql,
  userId: string,
  id: string,
): Promise<HistoryImportRun | null> {
  const [row] = await sql.query(
    `select ${COLUMNS} from public.history_imports where id = $1 and user_id = $2`,
    [id, userId],
  );
  return row ? toRun(row) : null;
}

/** A running run with its units and cursor, for resuming; null when it is not running. */
export async function loadRunning(sql: Sql, id: string): Promise<StoredRun | null> {
  const [row] = await sql.query(
    `select ${COLUMNS}, user_id, units, cursor from public.history_imports
     where id = $1 and status = 'running'`,
    [id],
  );
  if (!row) return null;
  const chunks = await sql.query<{ units: unknown }>(
    `select units from public.history_import_units where import_id = $1 order by chunk`,
    [id],
  );
  // Runs started before units were chunked kept them in the run's own column.
  const units = chunks.length > 0
    ? chunks.flatMap((c) => json<ImportUnit[]>(c.units))
    : json<ImportUnit[]>(row.units);
  return { ...toRun(row), userId: String(row.user_id), units, cursor: Number(row.cursor) };
}

// Units per stored chunk: ./unit_source.ts (UNITS_PER_CHUNK, 200), small enough that the
// embedded database parses one chunk's JSON in a few milliseconds on the event loop's thread.

/**
 * Stores a new run's units in chunks while the run is still running, yielding between them
 * (`pause`) and stopping when `keep` (the lease's heartbeat) says the run is no longer ours.
 * True once every chunk is stored; false when the run was cancelled or taken over meanwhile,
 * with the chunks this call stored removed again. `chunks` are the units' JSON
 * (./unit_source.ts `unitChunks`), each emptied once stored: the run reads its units back from
 * the store, and a 20 MiB file's 370,000 films took 70 MB of memory as objects for as long as its
 * run lasted.
 */
export async function storeUnits(
  sql: Sql,
  run: { id: string; chunks: string[] },
  options: { pause: () => Promise<void> | undefined; keep: () => Promise<boolean> },
): Promise<boolean> {
  const { id, chunks } = run;
  for (let chunk = 0; chunk < chunks.length; chunk++) {
    const stored = await sql.query(
      `insert into public.history_import_units (import_id, chunk, units)
       select $1, $2, $3::jsonb
        where exists (select 1 from public.history_imports where id = $1 and status = 'running')
       returning chunk`,
      [id, chunk, chunks[chunk]],
    );
    if (stored.length === 0 || !(await options.keep())) {
      // Cancelled (its own statement removed the chunks it saw) or taken over: ours go too.
      await sql.query(
        `delete from public.history_import_units u
          where u.import_id = $1 and not exists (
            select 1 from public.history_imports r where r.id = $1 and r.status = 'running')`,
        [id],
      );
      return false;
    }
    chunks[chunk] = "";
    await options.pause();
  }
  return true;
}

/** Whether a loaded run holds every unit it was started with (see `storeUnits`). */
export function unitsComplete(run: StoredRun): boolean {
  return run.units.length >= run.films.total;
}

/** The ids of every running run (resumed at start). */
export async function runningIds(sql: Sql): Promise<string[]> {
  const rows = await sql.query<{ id: string }>(
    `select id from public.history_imports where status = 'running' order by started_at`,
  );
  return rows.map((r) => String(r.id));
}
