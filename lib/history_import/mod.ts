/**
 * Reading a user's history file (contract section 11): the format is told from the content,
 * never from a file name: a ZIP's entries, a JSON document's shape, a CSV's header. The
 * result is a list of normalised rows; an unknown file is 400 `unknown_format`.
 */
import { Problem } from "../problem.ts";
import { csvHeader, invalidFile } from "./csv.ts";
import { imdbKind, imdbRows } from "./imdb.ts";
import { LETTERBOXD_FILES, letterboxdKind, letterboxdRows } from "./letterboxd.ts";
import { parseLetterboxdList } from "../user_lists/import.ts";
import type { ImportedList, ImportRow, ParsedFile } from "./rows.ts";
import {
  importCsvRows,
  isImportCsv,
  isServiceExport,
  serviceExportRows,
} from "./service_export.ts";
import { isTraktExport, traktRows } from "./trakt.ts";
import { looksLikeZip, readZip, type ZipLimits } from "./zip.ts";

export type { ImportFormat, ImportRow, ParsedFile, RowKind } from "./rows.ts";
export { MAX_UNZIPPED_BYTES, MAX_ZIP_ENTRIES, type ZipLimits } from "./zip.ts";

/** The 400 of a file in no format this service reads. */
export function unknownFormat(): Problem {
  return new Problem(
    400,
    "unknown_format",
    "The file is not a Letterboxd, Trakt or IMDb export, nor an export of this service.",
  );
}

const TRAKT_FILES = /^(watched-movies|ratings-movies|watchlist-movies|history(-\d+)?)\.json$/;
// Letterboxd's sub-folders hold other things (deleted entries, likes, lists) that are not
// the history: only top-level files, or files under one wrapping folder, are read.
const OTHER_FOLDERS = new Set(["deleted", "likes", "lists", "orphaned"]);

function baseName(path: string): string | null {
  const parts = path.split("/");
  if (parts.length > 2 || (parts.length === 2 && OTHER_FOLDERS.has(parts[0]))) return null;
  return parts[parts.length - 1];
}

// No export's header line comes near this.
const HEADER_BYTES = 16 * 1024;

const decoder = new TextDecoder("utf-8", { fatal: true });

function text(bytes: Uint8Array): string | null {
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

// A Letterboxd list: lists/<name>.csv, at the top or under one wrapping folder.
const LIST_FILE = /^([^/]+\/)?lists\/[^/]+\.csv$/i;

function fromZip(bytes: Uint8Array, limits?: ZipLimits): ParsedFile {
  const wanted = (path: string) => {
    if (LIST_FILE.test(path)) return true;
    const name = baseName(path);
    return name !== null && (name in LETTERBOXD_FILES || TRAKT_FILES.test(name));
  };
  const files = [...readZip(bytes, wanted, limits)].sort(([a], [b]) => a.localeCompare(b));
  const rows: ImportRow[] = [];
  let skipped = 0;
  let format: ParsedFile["format"] | null = null;
  const lists: ImportedList[] = [];
  for (const [path, data] of files) {
    const content = text(data);
    if (content === null) throw invalidFile(`${path} in the archive is not UTF-8 text.`);
    if (LIST_FILE.test(path)) {
      // The person's own lists (docs/user_lists.md): private lists of theirs after the import.
      const parsed = parseLetterboxdList(content, {
        index: lists.length,
        fileName: path.split("/").pop()!,
      });
      if (!parsed) continue;
      format ??= "letterboxd";
      lists.push(parsed.list);
      rows.push(...parsed.rows);
      skipped += parsed.skipped;
      continue;
    }
    const name = baseName(path)!;
    if (name in LETTERBOXD_FILES) {
      format ??= "letterboxd";
      rows.push(...letterboxdRows(content, LETTERBOXD_FILES[name]));
    } else {
      const parsed = fromText(content);
      if (parsed.format !== "trakt") continue;
      format ??= "trakt";
      rows.push(...parsed.rows);
      skipped += parsed.skipped;
    }
  }
  if (format === null) throw unknownFormat();
  return lists.length > 0 ? { format, rows, skipped, lists } : { format, rows, skipped };
}

function fromJson(json: unknown): ParsedFile {
  if (isServiceExport(json)) {
    return { format: "service", rows: serviceExportRows(json), skipped: 0 };
  }
  if (isTraktExport(json)) return { format: "trakt", ...traktRows(json) };
  throw unknownFormat();
}

function fromText(content: string): ParsedFile {
  const body = content.replace(/^\uFEFF/, "");
  const start = body.trimStart()[0];
  if (start === "[" || start === "{") {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw unknownFormat();
    }
    return fromJson(json);
  }
  // A header is one short line: only that much is read to tell the format.
  const head = body.slice(0, HEADER_BYTES);
  const eol = head.search(/\r?\n/);
  const header = eol < 0 && body.length > HEADER_BYTES
    ? []
    : csvHeader(eol < 0 ? head : head.slice(0, eol));
  const imdb = imdbKind(header);
  if (imdb) return { format: "imdb", ...imdbRows(body, imdb) };
  const letterboxd = letterboxdKind(header);
  if (letterboxd) {
    return { format: "letterboxd", rows: letterboxdRows(body, letterboxd), skipped: 0 };
  }
  if (isImportCsv(header)) return { format: "letterboxd", rows: importCsvRows(body), skipped: 0 };
  throw unknownFormat();
}

/** Reads an uploaded history file into rows; 400 `unknown_format` or `invalid_file` otherwise. */
export function parseHistoryFile(bytes: Uint8Array, options: { zip?: ZipLimits } = {}): ParsedFile {
  if (looksLikeZip(bytes)) return fromZip(bytes, options.zip);
  const content = text(bytes);
  if (content === null) throw unknownFormat();
  return fromText(content);
}
