/** CSV text to records through csv-parse (RFC 4180: quoted commas, doubled quotes, CRLF, BOM). */
import { parse } from "csv-parse/sync";
import { Problem } from "../problem.ts";
import { restoreCell } from "../csv/cells.ts";

/** A CSV read as its header and one object per data row, keyed by the header's names. */
export interface CsvTable {
  header: string[];
  records: Record<string, string>[];
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

/** Parses a whole CSV; a malformed one (an unclosed quote) is 400 `invalid_file`. */
export function readCsv(text: string): CsvTable {
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true });
  } catch (error) {
    const where = error instanceof Error
      ? error.message.replace(/^.*?(at line \d+)?.*$/s, "$1")
      : "";
    throw invalidFile(`The CSV file could not be read${where ? ` (${where})` : ""}.`);
  }
  const [first = [], ...data] = rows;
  const header = first.map((name) => name.trim());
  const records = data.map((cells) => {
    const record: Record<string, string> = {};
    // A cell neutralised against CSV injection reads back as it was written (lib/csv/cells.ts).
    header.forEach((name, i) => record[name] = restoreCell(cells[i] ?? ""));
    return record;
  });
  return { header, records };
}

/** Whether `header` has every one of `names`. */
export function hasColumns(header: string[], ...names: string[]): boolean {
  return names.every((name) => header.includes(name));
}
