/**
 * IMDb's CSV exports (contract section 11): ratings (`Const,Your Rating,Date Rated,...`) and
 * lists such as the watchlist (`Position,Const,Created,...`). IMDb ids cannot be looked up
 * (`/find` is not an allowed path), so rows match by title and year. Series, episodes and
 * games are skipped.
 */
import { hasColumns, readCsv } from "./csv.ts";
import { type ImportRow, ratingOf10, row, toDate, toYear } from "./rows.ts";

/** Which IMDb export a header is, or null. */
export function imdbKind(header: string[]): "ratings" | "list" | null {
  if (!hasColumns(header, "Const", "Title")) return null;
  if (header.includes("Position")) return "list";
  return header.includes("Your Rating") ? "ratings" : null;
}

// Title Types that are movies, in both spellings IMDb has used ("TV Movie" and "tvMovie").
const MOVIE_TYPES = new Set(["movie", "tvmovie", "short", "video"]);

/** Whether an IMDb Title Type names a movie (an empty one is given the benefit of the doubt). */
export function isMovieType(titleType: string | undefined): boolean {
  const key = (titleType ?? "").toLowerCase().replace(/[\s_-]+/g, "");
  return key === "" || MOVIE_TYPES.has(key);
}

/** The rows of an IMDb export, and how many were skipped as not movies. */
export function imdbRows(text: string, kind: "ratings" | "list") {
  const { records } = readCsv(text);
  let skipped = 0;
  const rows: ImportRow[] = [];
  for (const r of records) {
    const title = (r["Title"] ?? "").trim();
    if (!title) continue;
    if (!isMovieType(r["Title Type"])) {
      skipped++;
      continue;
    }
    const rating = ratingOf10(r["Your Rating"]);
    // A rated list entry was watched; an unrated one is something to watch.
    const rated = rating !== undefined;
    rows.push(row({
      kind: rated ? "rating" : kind === "list" ? "watchlist" : "rating",
      title,
      year: toYear(r["Year"]),
      date: rated ? toDate(r["Date Rated"]) : toDate(r["Created"]),
      rating,
    }));
  }
  return { rows, skipped };
}
