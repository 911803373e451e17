/**
 * Letterboxd's export CSVs (contract section 11): watched, diary, ratings, watchlist and
 * reviews, alone or from the export ZIP. Ratings are 0.5-5 stars, doubled to 1-10.
 */
import { hasColumns, readCsv } from "./csv.ts";
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

/** The rows of one Letterboxd CSV read as `kind`. */
export function letterboxdRows(text: string, kind: RowKind): ImportRow[] {
  const { records } = readCsv(text);
  return records.flatMap((r) => {
    const title = (r["Name"] ?? "").trim();
    if (!title) return [];
    // A diary entry's date is the day watched; "Date" is the day it was logged.
    const date = kind === "diary" || kind === "review"
      ? toDate(r["Watched Date"]) ?? toDate(r["Date"])
      : toDate(r["Date"]);
    const entry = kind === "diary" || kind === "review";
    return [row({
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
    })];
  });
}
