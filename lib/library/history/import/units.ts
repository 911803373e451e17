/**
 * A file's rows grouped per movie before matching: every row naming the same TMDB id, or the
 * same title and year, becomes one unit, so a movie is matched once and its rows are merged
 * by the rules of docs/history.md (the latest watch date; the latest dated rating).
 */
import { titleKey } from "@/lib/catalog/title_match.ts";
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
  /** The movie's viewings in the file, one per date (diary entries, plays). */
  viewings?: UnitViewing[];
  /** The file's title was too long to be one: reported `invalid_row`, never searched. */
  invalid?: true;
  /** The lists of the file that hold it (docs/lists.md). */
  lists?: ListMembership[];
}

/** One viewing of a unit: a date, and what the file says of it. */
interface UnitViewing {
  on: string;
  rating?: number;
  rewatch?: boolean;
  note?: string;
}

type Building = ImportUnit & {
  watchDate?: string;
  loggedDate?: string;
  rateDate?: string;
  lastPlay?: string;
  plays?: Map<string, UnitViewing>;
};

// A diary entry and the review written on it are one viewing: what each says is merged.
function addViewing(unit: Building, row: ImportRow & { date: string }) {
  unit.plays ??= new Map();
  const v = unit.plays.get(row.date) ?? { on: row.date };
  if (row.rating !== undefined) v.rating = row.rating;
  if (row.rewatch) v.rewatch = true;
  if (row.review !== undefined) v.note = row.review;
  unit.plays.set(row.date, v);
}

const later = (a: string | undefined, b: string | undefined) =>
  a === undefined ? b : b === undefined ? a : a >= b ? a : b;

function keyOf(row: ImportRow): string {
  return row.tmdbId !== undefined
    ? `id:${row.tmdbId}`
    : `t:${titleKey(row.title) || row.title}|${row.year ?? ""}`;
}

/**
 * Groups rows into units, in the order each movie first appears; `pause` (a slicer's tick)
 * gives the event loop a turn now and then.
 */
export async function groupRows(
  rows: ImportRow[],
  pause: () => Promise<void> | undefined = () => undefined,
): Promise<ImportUnit[]> {
  const units = new Map<string, Building>();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (i % 512 === 0) await pause();
    const key = keyOf(row);
    let unit = units.get(key);
    if (!unit) {
      unit = { title: row.title, rows: 0, watched: false, listed: 0 };
      if (row.tmdbId !== undefined) unit.tmdbId = row.tmdbId;
      if (row.year !== undefined) unit.year = row.year;
      if (row.invalid) unit.invalid = true;
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
    // Letterboxd's watched.csv date is the day logged: it counts only when nothing says when
    // the film was watched.
    if (row.logged) unit.loggedDate = later(unit.loggedDate, row.date);
    else if (row.kind !== "rating") unit.watchDate = later(unit.watchDate, row.date);
    if (row.viewing && row.date !== undefined) addViewing(unit, { ...row, date: row.date });
    if (row.lastPlay) unit.lastPlay = later(unit.lastPlay, row.date);
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
  const out: ImportUnit[] = [];
  // Finishing 300,000 units is work of its own: it pauses too.
  for (const { watchDate, loggedDate, rateDate, lastPlay, plays, ...unit } of units.values()) {
    if (out.length % 512 === 0) await pause();
    const done: ImportUnit = { ...unit };
    const ratedOn = rateDate || undefined;
    const watchedOn = watchDate ?? loggedDate ?? ratedOn;
    // Trakt's last play is a viewing of its own only when the history lists none.
    if (!plays && lastPlay) done.viewings = [{ on: lastPlay }];
    if (plays) done.viewings = [...plays.values()].sort((a, b) => a.on.localeCompare(b.on));
    if (watchedOn !== undefined) done.watchedOn = watchedOn;
    if (ratedOn !== undefined && unit.rating !== undefined) done.ratedOn = ratedOn;
    out.push(done);
  }
  return out;
}
