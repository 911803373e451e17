/** CSV text to records through csv-parse (RFC 4180: quoted commas, doubled quotes, CRLF, BOM). */
import { Buffer } from "node:buffer";
import { Parser } from "csv-parse";
import { parse } from "csv-parse/sync";
import { restoreCell } from "@/lib/core/csv/cells.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { Slicer } from "./slices.ts";

/** Rows one file may hold (every entry of an archive together). */
export const MAX_ROWS = 500_000;
/** The longest row csv-parse buffers: a longer one makes the file unreadable. */
const MAX_RECORD_CHARS = 4 * 1024 * 1024;
// Bytes handed to the parser per piece: a few milliseconds of work.
const PIECE = 64 * 1024;

/** What reading one file shares: the slicer, and the rows read so far against the limit. */
export interface ReadContext {
  slicer: Slicer;
  rows: number;
  maxRows: number;
}

/** A new context for one upload. */
export function readContext(slicer: Slicer, maxRows: number = MAX_ROWS): ReadContext {
  return { slicer, rows: 0, maxRows };
}

/** Counts one row of the file; past the limit, 400 `too_many_rows`. */
export function countRow(ctx: ReadContext): void {
  if (++ctx.rows > ctx.maxRows) {
    throw new Problem(
      400,
      "too_many_rows",
      `The file has more than ${
        ctx.maxRows.toLocaleString("en")
      } rows; split it and import the parts.`,
    );
  }
}

interface IncrementalParser {
  parse(
    buf: Buffer | undefined,
    end: boolean,
    push: (record: string[]) => void,
    close: () => void,
  ): Error | undefined;
}

/**
 * Calls `onRecord` with each data row of a CSV (keyed by the header's names), parsing it a
 * piece at a time and yielding between pieces; an unclosed quote or a row longer than 4 MiB
 * is 400 `invalid_file`.
 */
export async function eachCsvRecord(
  bytes: Uint8Array,
  ctx: ReadContext,
  onRecord: (record: Record<string, string>) => void,
): Promise<void> {
  // The stream parser's incremental core, driven by hand: no stream, no callbacks across turns.
  const parser = (new Parser({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_CHARS,
  }) as unknown as { api: IncrementalParser }).api;
  let header: string[] | null = null;
  const push = (cells: string[]) => {
    if (header === null) {
      header = cells.map((name) => name.trim());
      return;
    }
    const record: Record<string, string> = {};
    // A cell neutralised against CSV injection reads back as it was written (lib/core/csv/cells.ts).
    header.forEach((name, i) => record[name] = restoreCell(cells[i] ?? ""));
    onRecord(record);
  };
  const fail = (error: Error) => {
    if (error instanceof Problem) throw error;
    const where = error.message.replace(/^.*?(at line \d+)?.*$/s, "$1");
    throw invalidFile(`The CSV file could not be read${where ? ` (${where})` : ""}.`);
  };
  for (let i = 0; i <= bytes.length; i += PIECE) {
    const end = i + PIECE >= bytes.length;
    const piece = Buffer.from(
      bytes.buffer,
      bytes.byteOffset + i,
      Math.min(PIECE, bytes.length - i),
    );
    let error: Error | undefined;
    try {
      error = parser.parse(piece, false, push, () => {});
      if (!error && end) error = parser.parse(undefined, true, push, () => {});
    } catch (thrown) {
      error = thrown as Error;
    }
    if (error) fail(error);
    if (end) break;
    await ctx.slicer.tick();
  }
}

/** The 400 of a file that cannot be read as what it claims to be. */
export function invalidFile(detail: string): Problem {
  return new Problem(400, "invalid_file", detail);
}

/** The header row alone (format detection reads no further). */
export function csvHeader(text: string): string[] {
  try {
    const [first] = parse(text, { bom: true, to_line: 1, relax_column_count: true }) as string[][];
    return (first ?? []).map((name) => name.trim());
  } catch {
    return [];
  }
}

/** Whether `header` has every one of `names`. */
export function hasColumns(header: string[], ...names: string[]): boolean {
  return names.every((name) => header.includes(name));
}
