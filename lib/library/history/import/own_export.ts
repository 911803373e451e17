/**
 * This service's own exports read back (docs/history.md): the JSON of `GET /api/export`
 * and the CSV of `?format=csv` (`tmdbID,Title,Year,Rating10,WatchedDate,Review`, the columns
 * Letterboxd's importer reads, so other tools' files in that shape import too).
 */
import { countRow, eachCsvRecord, type ReadContext } from "./csv.ts";
import {
  type ImportRow,
  ratingOf10,
  ratingOfStars,
  row,
  toDate,
  toReview,
  toTmdbId,
  toYear,
} from "./rows.ts";

/** Whether a CSV header is the Letterboxd import shape this service exports. */
export function isImportCsv(header: string[]): boolean {
  return header.includes("tmdbID") ||
    (header.includes("Title") && (header.includes("WatchedDate") || header.includes("Rating10")));
}

/**
 * The rows of such a CSV. A file where no row has a date, rating or review is a My List
 * export (watchlist rows); otherwise every row is a watched entry.
 */
export async function importCsvRows(bytes: Uint8Array, ctx: ReadContext): Promise<ImportRow[]> {
  const read: (Omit<ImportRow, "kind"> & { rewatchCell: string })[] = [];
  // The diary export (with Rewatch) is one row per viewing; the watched export one per movie.
  let diary = false;
  await eachCsvRecord(bytes, ctx, (r) => {
    countRow(ctx);
    if ("Rewatch" in r) diary = true;
    const cells = {
      tmdbId: toTmdbId(r["tmdbID"]),
      title: (r["Title"] ?? "").trim(),
      year: toYear(r["Year"]),
      date: toDate(r["WatchedDate"]),
      rating: ratingOf10(r["Rating10"]) ?? ratingOfStars(r["Rating"]),
      review: toReview(r["Review"]),
      rewatchCell: r["Rewatch"] ?? "",
    };
    if (cells.title !== "" || cells.tmdbId !== undefined) read.push(cells);
  });
  const watched = read.some((r) => r.date || r.rating || r.review);
  const kind = watched ? diary ? "diary" : "watched" : "watchlist";
  const rows: ImportRow[] = [];
  for (let i = 0; i < read.length; i++) {
    const { rewatchCell, ...r } = read[i];
    rows.push(row({
      kind,
      ...r,
      viewing: diary && r.date !== undefined ? true : undefined,
      rewatch: diary && /^(yes|true)$/i.test(rewatchCell.trim()) ? true : undefined,
    }));
    if (i % 4096 === 0) await ctx.slicer.tick();
  }
  return rows;
}

type Entry = Record<string, unknown>;
const isObject = (value: unknown): value is Entry =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether parsed JSON is this service's JSON export. */
export function isServiceExport(
  json: unknown,
): json is { watched: Entry[]; myList: Entry[]; diary?: unknown[] } {
  return isObject(json) && Array.isArray(json.watched) && Array.isArray(json.myList);
}

type Fields = Parameters<typeof row>[0];

// The export's entries in order, each made a row by `toRow`, a turn given now and then.
async function rowsOf(
  entries: unknown,
  toRow: (e: Entry) => Fields,
  out: ImportRow[],
  pause: () => Promise<void> | undefined,
): Promise<void> {
  if (!Array.isArray(entries)) return;
  for (let i = 0; i < entries.length; i++) {
    if (i % 256 === 0) await pause();
    const e = entries[i];
    if (!isObject(e)) continue;
    const r = row(toRow(e));
    if (r.tmdbId !== undefined || r.title !== "") out.push(r);
  }
}

const titleOf = (e: Entry) => typeof e.title === "string" ? e.title : "";

/** The rows of the JSON export: watched entries with their fields, the diary, then My List. */
export async function ownExportRows(
  json: { watched: unknown[]; myList: unknown[]; diary?: unknown[] },
  pause: () => Promise<void> | undefined = () => undefined,
): Promise<ImportRow[]> {
  const rows: ImportRow[] = [];
  await rowsOf(
    json.watched,
    (e) => ({
      kind: "watched",
      tmdbId: toTmdbId(e.catalogId),
      title: titleOf(e),
      year: toYear(e.year),
      date: toDate(e.watchedOn),
      rating: ratingOf10(e.rating ?? ""),
      review: toReview(e.note),
    }),
    rows,
    pause,
  );
  // The diary (exports since the diary came): one row per viewing, with its own mark.
  await rowsOf(
    json.diary,
    (e) => {
      const date = toDate(e.watchedOn);
      return {
        kind: "diary",
        tmdbId: toTmdbId(e.catalogId),
        title: titleOf(e),
        year: toYear(e.year),
        date,
        rating: ratingOf10(e.rating ?? ""),
        review: toReview(e.note),
        viewing: date !== undefined ? true : undefined,
        rewatch: e.rewatch === true ? true : undefined,
      };
    },
    rows,
    pause,
  );
  await rowsOf(
    json.myList,
    (e) => ({
      kind: "watchlist",
      tmdbId: toTmdbId(e.catalogId),
      title: titleOf(e),
      year: toYear(e.year),
    }),
    rows,
    pause,
  );
  return rows;
}
