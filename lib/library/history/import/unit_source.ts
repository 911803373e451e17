/**
 * The films ("units") a run works through, in file order (docs/history.md, "Uploads at once"): a
 * fresh run reads them back from its stored chunks a few at a time, so five runs of 20 MiB files
 * no longer hold 370,000 films each in memory for as long as they run (issue 43); a resumed run
 * (which loads them all) and the tests keep them in memory.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";
import type { ImportUnit } from "./units.ts";

// Units per stored chunk (runs.ts stores what unitChunks makes): a chunk is read back whole.
const UNITS_PER_CHUNK = 200;

/**
 * `units` as the JSON of their stored chunks, in order: a fresh run keeps these (about half the
 * memory of the objects) until each is stored, and reads the units back from the store.
 */
export async function unitChunks(
  units: ImportUnit[],
  pause: () => Promise<void> | undefined = () => undefined,
): Promise<string[]> {
  const chunks: string[] = [];
  for (let from = 0; from < units.length; from += UNITS_PER_CHUNK) {
    chunks.push(JSON.stringify(units.slice(from, from + UNITS_PER_CHUNK)));
    await pause();
  }
  return chunks;
}

/** A fresh run's units until stored: their chunks' JSON, and what the run needs of them. */
export interface FreshUnits {
  length: number;
  rows: number;
  /** The movies named by id, whose details are fetched after the run. */
  ids: number[];
  chunks: string[];
}

/** The distinct TMDB ids `units` name. */
export const namedIds = (units: ImportUnit[]): number[] => [
  ...new Set(units.flatMap((u) => (u.tmdbId === undefined ? [] : [u.tmdbId]))),
];

/** A fresh run's units from the file's films: from here on they are the JSON of their chunks. */
export async function freshUnits(
  units: ImportUnit[],
  pause: () => Promise<void> | undefined,
): Promise<FreshUnits> {
  return {
    length: units.length,
    rows: units.reduce((n, u) => n + u.rows, 0),
    ids: namedIds(units),
    chunks: await unitChunks(units, pause),
  };
}

/** Where a run's units come from. */
export interface UnitSource {
  /** How many units the run has. */
  readonly length: number;
  /** The rows of the file all of them stand for. */
  readonly rows: number;
  /** Units `start` to `end` (exclusive); null when the run's stored units are gone (cancelled). */
  slice(start: number, end: number): Promise<ImportUnit[] | null>;
}

/** Units held in memory. */
export function unitsInMemory(units: ImportUnit[]): UnitSource {
  return {
    length: units.length,
    rows: units.reduce((n, u) => n + u.rows, 0),
    slice: (start, end) => Promise.resolve(units.slice(start, end)),
  };
}

const CHUNKS_SQL = `select chunk, units from public.history_import_units
  where import_id = $1 and chunk = any($2::integer[])`;

/**
 * Units read back from run `id`'s stored chunks. Chunks read stay until a later slice starts past
 * them (a run asks for a batch and the two ahead of it: two or three chunks at a time).
 */
export function storedUnits(
  sql: Sql,
  run: { id: string; length: number; rows: number },
): UnitSource {
  const chunks = new Map<number, Promise<ImportUnit[] | null>>();

  function load(wanted: number[]) {
    const read = sql.query<{ chunk: number; units: unknown }>(CHUNKS_SQL, [run.id, wanted]);
    for (const chunk of wanted) {
      chunks.set(
        chunk,
        read.then((rows) => {
          const row = rows.find((r) => Number(r.chunk) === chunk);
          if (!row) return null;
          return (typeof row.units === "string"
            ? JSON.parse(row.units)
            : row.units) as ImportUnit[];
        }),
      );
    }
  }

  return {
    length: run.length,
    rows: run.rows,
    async slice(start, end) {
      const first = Math.floor(start / UNITS_PER_CHUNK);
      const last = Math.floor((Math.max(start + 1, end) - 1) / UNITS_PER_CHUNK);
      for (const chunk of chunks.keys()) if (chunk < first) chunks.delete(chunk);
      const wanted: number[] = [];
      for (let chunk = first; chunk <= last; chunk++) if (!chunks.has(chunk)) wanted.push(chunk);
      if (wanted.length > 0) load(wanted);
      // Taken now: a later slice may let these chunks go while this one waits for them.
      const reads: Promise<ImportUnit[] | null>[] = [];
      for (let chunk = first; chunk <= last; chunk++) reads.push(chunks.get(chunk)!);
      const parts: ImportUnit[] = [];
      for (let chunk = first; chunk <= last; chunk++) {
        const units = await reads[chunk - first];
        if (units === null) return null;
        const from = Math.max(0, start - chunk * UNITS_PER_CHUNK);
        const to = Math.min(units.length, end - chunk * UNITS_PER_CHUNK);
        for (let i = from; i < to; i++) parts.push(units[i]);
      }
      return parts;
    },
  };
}
