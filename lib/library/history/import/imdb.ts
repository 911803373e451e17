/**
 * IMDb's CSV exports (docs/history.md): ratings (`Const,Your Rating,Date Rated,...`) and
 * lists such as the watchlist (`Position,Const,Created,...`). IMDb ids cannot be looked up
 * (`/find` is not an allowed path), so rows match by title and year. Series, episodes and
 * games are skipped.
 */
import { countRow, eachCsvRecord, hasColumns, type ReadContext } from "./csv.ts";
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
function isMovieType(titleType: string | undefined): boolean {
  const key = (titleType ?? "").toLowerCase().replace(/[\s_-]+/g, "");
  return key === "" || MOVIE_TYPES.has(key);
}

/** Appends the rows of an IMDb export to `rows`; answers how many were skipped as not movies. */
export async function imdbRows(
  bytes: Uint8Array,
  kind: "ratings" | "list",
  ctx: ReadContext,
  rows: ImportRow[],
): Promise<number> {
  let skipped = 0;
  await eachCsvRecord(bytes, ctx, (r) => {
    countRow(ctx);
    const title = (r["Title"] ?? "").trim();
    if (!title) return;
    if (!isMovieType(r["Title Type"])) {
      skipped++;
      return;
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
  });
  return skipped;
}
