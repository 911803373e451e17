/**
 * Letterboxd's export CSVs (docs/history.md): watched, diary, ratings, watchlist and
 * reviews, alone or from the export ZIP. Ratings are 0.5-5 stars, doubled to 1-10.
 */
import { countRow, eachCsvRecord, hasColumns, type ReadContext } from "./csv.ts";
import {
  type ImportRow,
  ratingOfStars,
  row,
  type RowKind,
  toDate,
  toReview,
  toYear,
} from "./rows.ts";

/** The export's file names and the rows each gives. */
export const LETTERBOXD_FILES: Record<string, RowKind> = {
  "watched.csv": "watched",
  "diary.csv": "diary",
  "ratings.csv": "rating",
  "watchlist.csv": "watchlist",
  "reviews.csv": "review",
};

/**
 * The kind of a Letterboxd CSV from its header alone, or null when it is not one. watched.csv
 * and watchlist.csv have the same four columns: alone, such a file is taken as watched.
 */
export function letterboxdKind(header: string[]): RowKind | null {
  if (!hasColumns(header, "Name", "Letterboxd URI")) return null;
  if (header.includes("Review")) return "review";
  if (header.includes("Watched Date")) return "diary";
  if (header.includes("Rating")) return "rating";
  return "watched";
}

/** Appends the rows of one Letterboxd CSV read as `kind` to `rows`. */
export async function letterboxdRows(
  bytes: Uint8Array,
  kind: RowKind,
  ctx: ReadContext,
  rows: ImportRow[],
): Promise<void> {
  await eachCsvRecord(bytes, ctx, (r) => {
    countRow(ctx);
    const title = (r["Name"] ?? "").trim();
    if (!title) return;
    // A diary entry's date is the day watched; "Date" is the day it was logged.
    const entry = kind === "diary" || kind === "review";
    const date = entry ? toDate(r["Watched Date"]) ?? toDate(r["Date"]) : toDate(r["Date"]);
    rows.push(row({
      kind,
      title,
      year: toYear(r["Year"]),
      date,
      rating: ratingOfStars(r["Rating"]),
      review: kind === "review" ? toReview(r["Review"]) : undefined,
      // Each diary entry (and the review written on it) is one viewing of that date.
      viewing: entry && date !== undefined ? true : undefined,
      rewatch: entry && /^yes$/i.test((r["Rewatch"] ?? "").trim()) ? true : undefined,
      logged: kind === "watched" ? true : undefined,
    }));
  });
}
