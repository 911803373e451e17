/**
 * Reading a user's history file (docs/history.md): the format is told from the content,
 * never from a file name: a ZIP's entries, a JSON document's shape, a CSV's header. The
 * result is a list of normalised rows; an unknown file is 400 `unknown_format`. Reading works
 * in slices that yield to the event loop (slices.ts), so a large file never stalls others.
 */
import { Problem } from "@/lib/core/problem.ts";
import { countRow, csvHeader, invalidFile, type ReadContext, readContext } from "./csv.ts";
import { imdbKind, imdbRows } from "./imdb.ts";
import { LETTERBOXD_FILES, letterboxdKind, letterboxdRows } from "./letterboxd.ts";
import { parseLetterboxdList } from "@/lib/library/lists/import.ts";
import type { ImportedList, ImportRow, ParsedFile } from "./rows.ts";
import { importCsvRows, isImportCsv, isServiceExport, ownExportRows } from "./own_export.ts";
import { isTraktExport, traktRows } from "./trakt.ts";
import { JsonReadError, readJson } from "./json_reader.ts";
import { Slicer } from "./slices.ts";
import { decodeUtf8, isUtf8, utf8Head } from "./text.ts";
import { looksLikeZip, readZip, type ZipLimits } from "./zip.ts";

export { type ZipLimits } from "./zip.ts";
export { MAX_ROWS } from "./csv.ts";

/** The 400 of a file in no format this service reads. */
function unknownFormat(): Problem {
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

function text(bytes: Uint8Array, options?: { stream: boolean }): string | null {
  try {
    // A decoder per call: a streamed (cut) head must not leave state for the next decode.
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes, options);
  } catch {
    return null;
  }
}

// The format of a CSV from its header line, read from the first 16 KiB only: a 60 MiB single
// line is refused without being parsed.
function csvKind(bytes: Uint8Array) {
  const head = text(bytes.subarray(0, HEADER_BYTES + 4), { stream: true }) ?? "";
  const eol = head.search(/\r?\n/);
  const header = eol < 0 && bytes.length > HEADER_BYTES
    ? []
    : csvHeader(eol < 0 ? head : head.slice(0, eol));
  return { imdb: imdbKind(header), letterboxd: letterboxdKind(header), ours: isImportCsv(header) };
}

// A list file's start: Letterboxd's version line, or its list block's header without it.
const LIST_CSV = /^(Letterboxd list export|Date,Name,Tags,URL,Description\r?\n)/i;

// A Letterboxd list: lists/<name>.csv, at the top or under one wrapping folder.
const LIST_FILE = /^([^/]+\/)?lists\/[^/]+\.csv$/i;

async function fromZip(
  bytes: Uint8Array,
  ctx: ReadContext,
  limits: ZipLimits = {},
): Promise<ParsedFile> {
  const wanted = (path: string) => {
    if (LIST_FILE.test(path)) return true;
    const name = baseName(path);
    return name !== null && (name in LETTERBOXD_FILES || TRAKT_FILES.test(name));
  };
  const files = [...(await readZip(bytes, wanted, { ...limits, slicer: ctx.slicer }))]
    .sort(([a], [b]) => a.localeCompare(b));
  const rows: ImportRow[] = [];
  let skipped = 0;
  let format: ParsedFile["format"] | null = null;
  const lists: ImportedList[] = [];
  for (const [path, data] of files) {
    if (LIST_FILE.test(path)) {
      const content = await decodeUtf8(data, ctx.slicer);
      if (content === null) throw invalidFile(`${path} in the archive is not UTF-8 text.`);
      // The person's own lists (docs/lists.md): private lists of theirs after the import.
      const parsed = parseLetterboxdList(content, {
        index: lists.length,
        fileName: path.split("/").pop()!,
      });
      if (!parsed) continue;
      format ??= "letterboxd";
      lists.push(parsed.list);
      for (const r of parsed.rows) {
        countRow(ctx);
        rows.push(r);
      }
      skipped += parsed.skipped;
      await ctx.slicer.tick();
      continue;
    }
    const name = baseName(path)!;
    if (name in LETTERBOXD_FILES) {
      if (await decodeUtf8(data, ctx.slicer) === null) {
        throw invalidFile(`${path} in the archive is not UTF-8 text.`);
      }
      // The header is checked before the entry is parsed, as a plain file's is.
      if (data.length > 0 && !csvKind(data).letterboxd) {
        throw invalidFile(`${path} in the archive is not a Letterboxd CSV.`);
      }
      format ??= "letterboxd";
      await letterboxdRows(data, LETTERBOXD_FILES[name], ctx, rows);
    } else {
      const parsed = await fromBytes(
        data,
        ctx,
        () => invalidFile(`${path} in the archive is not UTF-8 text.`),
      );
      if (parsed.format !== "trakt") continue;
      format ??= "trakt";
      for (const r of parsed.rows) rows.push(r);
      skipped += parsed.skipped;
    }
  }
  if (format === null) throw unknownFormat();
  return lists.length > 0 ? { format, rows, skipped, lists } : { format, rows, skipped };
}

// The entries were counted against the row limit as they were read.
async function fromJson(json: unknown, ctx: ReadContext): Promise<ParsedFile> {
  const pause = () => ctx.slicer.tick();
  if (isServiceExport(json)) {
    return { format: "service", rows: await ownExportRows(json, pause), skipped: 0 };
  }
  if (isTraktExport(json)) return { format: "trakt", ...await traktRows(json, pause) };
  throw unknownFormat();
}

// JSON read a value at a time (json_reader.ts): one JSON.parse of 20 MiB held the loop 4 s.
async function readJsonFile(body: string, ctx: ReadContext): Promise<unknown> {
  try {
    return await readJson(body, { slicer: ctx.slicer, onItem: () => countRow(ctx) });
  } catch (error) {
    if (!(error instanceof JsonReadError)) throw error;
    if (error.bound === "syntax") throw unknownFormat();
    throw invalidFile(`The JSON file could not be read: ${error.message}.`);
  }
}

async function fromBytes(
  bytes: Uint8Array,
  ctx: ReadContext,
  notText: () => Problem = unknownFormat,
): Promise<ParsedFile> {
  // Told from the start of the text: only JSON and a list are decoded whole (issue 43: a 20 MiB
  // CSV's whole text, read again from its bytes by the CSV reader, was 20-40 MB for nothing).
  const head = utf8Head(bytes)?.replace(/^\uFEFF/, "");
  if (head === undefined) throw notText();
  const start = head.trimStart()[0];
  if (start === "[" || start === "{") {
    const content = await decodeUtf8(bytes, ctx.slicer);
    if (content === null) throw notText();
    return await fromJson(await readJsonFile(content.replace(/^\uFEFF/, ""), ctx), ctx);
  }
  if (!(await isUtf8(bytes, ctx.slicer))) throw notText();
  if (LIST_CSV.test(head)) {
    const body = (await decodeUtf8(bytes, ctx.slicer))!.replace(/^\uFEFF/, "");
    // One list on its own (this service's list CSV, or a file from a Letterboxd ZIP's lists/).
    const parsed = parseLetterboxdList(body, { index: 0, fileName: "list.csv" });
    if (!parsed) throw unknownFormat();
    for (let i = 0; i < parsed.rows.length; i++) countRow(ctx);
    return {
      format: "letterboxd",
      rows: parsed.rows,
      skipped: parsed.skipped,
      lists: [parsed.list],
    };
  }
  const kind = csvKind(bytes);
  if (kind.imdb) {
    const rows: ImportRow[] = [];
    const skipped = await imdbRows(bytes, kind.imdb, ctx, rows);
    return { format: "imdb", rows, skipped };
  }
  if (kind.letterboxd) {
    const rows: ImportRow[] = [];
    await letterboxdRows(bytes, kind.letterboxd, ctx, rows);
    return { format: "letterboxd", rows, skipped: 0 };
  }
  if (kind.ours) return { format: "letterboxd", rows: await importCsvRows(bytes, ctx), skipped: 0 };
  throw unknownFormat();
}

/** Limits of one read (tests lower them). */
interface ParseOptions {
  zip?: ZipLimits;
  /** Rows a file may hold (default 500,000). */
  maxRows?: number;
  slicer?: Slicer;
}

/** What reads a history file: `parseHistoryFile` here, or in a worker (read_off_thread.ts). */
export type ReadHistoryFile = (bytes: Uint8Array, options?: ParseOptions) => Promise<ParsedFile>;

/**
 * Reads an uploaded history file into rows, a slice at a time (the event loop gets a turn
 * every few milliseconds); 400 `unknown_format`, `invalid_file` or `too_many_rows` otherwise.
 */
export function parseHistoryFile(
  bytes: Uint8Array,
  options: ParseOptions = {},
): Promise<ParsedFile> {
  const ctx = readContext(options.slicer ?? new Slicer(), options.maxRows);
  return looksLikeZip(bytes) ? fromZip(bytes, ctx, options.zip) : fromBytes(bytes, ctx);
}
