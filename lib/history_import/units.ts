/**
 * A file's rows grouped per movie before matching: every row naming the same TMDB id, or the
 * same title and year, becomes one unit, so a movie is matched once and its rows are merged
 * by the rules of contract section 11 (the latest watch date; the latest dated rating).
 */
import { titleKey } from "../recommend/resolve_titles.ts";
import type { ImportRow, ListMembership } from "./rows.ts";

/** One movie of the file, its rows merged. Stored as JSON with the run, so it stays small. */
export interface ImportUnit {
  tmdbId?: number;
  title: string;
  year?: number;
  /** Rows of the file this unit stands for. */
  rows: number;
  /** Whether a watched, diary, rating or review row names it. */
  watched: boolean;
  /** How many watchlist rows name it. */
  listed: number;
  /** The latest watch date; a rating's date when no row says when it was watched. */
  watchedOn?: string;
  rating?: number;
  /** When the rating was given (its row's date), if the file says. */
  ratedOn?: string;
  review?: string;
  /** The lists of the file that hold it (docs/user_lists.md). */
  lists?: ListMembership[];
}

const later = (a: string | undefined, b: string | undefined) =>
  a === undefined ? b : b === undefined ? a : a >= b ? a : b;

function keyOf(row: ImportRow): string {
  return row.tmdbId !== undefined
    ? `id:${row.tmdbId}`
    : `t:${titleKey(row.title) || row.title}|${row.year ?? ""}`;
}

/** Groups rows into units, in the order each movie first appears. */
export function groupRows(rows: ImportRow[]): ImportUnit[] {
  const units = new Map<string, ImportUnit & { watchDate?: string; rateDate?: string }>();
  for (const row of rows) {
    const key = keyOf(row);
    let unit = units.get(key);
    if (!unit) {
      unit = { title: row.title, rows: 0, watched: false, listed: 0 };
      if (row.tmdbId !== undefined) unit.tmdbId = row.tmdbId;
      if (row.year !== undefined) unit.year = row.year;
      units.set(key, unit);
    }
    unit.rows++;
    if (!unit.title && row.title) unit.title = row.title;
    if (row.kind === "list") {
      if (row.list) (unit.lists ??= []).push(row.list);
      continue;
    }
    if (row.kind === "watchlist") {
      unit.listed++;
      continue;
    }
    unit.watched = true;
    if (row.kind !== "rating") unit.watchDate = later(unit.watchDate, row.date);
    if (row.rating !== undefined) {
      // The latest dated rating wins; on a tie (or no dates) the later row in the file.
      const date = row.date ?? "";
      if (unit.rating === undefined || date >= (unit.rateDate ?? "")) {
        unit.rating = row.rating;
        unit.rateDate = date;
      }
    }
    if (row.review !== undefined && (unit.review === undefined || row.kind === "review")) {
      unit.review = row.review;
    }
  }
  return [...units.values()].map(({ watchDate, rateDate, ...unit }) => {
    const out: ImportUnit = { ...unit };
    const ratedOn = rateDate || undefined;
    const watchedOn = watchDate ?? ratedOn;
    if (watchedOn !== undefined) out.watchedOn = watchedOn;
    if (ratedOn !== undefined && unit.rating !== undefined) out.ratedOn = ratedOn;
    return out;
  });
}
