/**
 * The normalised rows every history file becomes (docs/history.md), and the value rules
 * the format readers share: real dates, years, ratings on the 1-10 scale, review text.
 */
import { MAX_NOTE_LENGTH } from "@/lib/library/entries/entry_fields.ts";

/** What a row asks for: watched-list kinds, or the watchlist (My List). */
export type RowKind = "watched" | "diary" | "rating" | "review" | "watchlist" | "list";

/** The file formats `GET /api/import/:id` names; `service` is this service's own JSON export. */
export type ImportFormat = "letterboxd" | "trakt" | "imdb" | "service";

/** One movie entry of a file, whatever its format. */
export interface ImportRow {
  kind: RowKind;
  /** The TMDB id when the file carries it (Trakt, this service's exports). */
  tmdbId?: number;
  title: string;
  year?: number;
  /** YYYY-MM-DD: the watch date (watched, diary, review) or when the rating/listing was made. */
  date?: string;
  /** 1-10. */
  rating?: number;
  review?: string;
  /** The row is one viewing of the movie on `date` (a diary entry, a Trakt play). */
  viewing?: boolean;
  /** The file's own rewatch mark on that viewing (Letterboxd's Rewatch). */
  rewatch?: boolean;
  /** The movie's last play (Trakt's watched list): a viewing only when no play is listed. */
  lastPlay?: boolean;
  /** `date` is the day the film was logged, not watched (Letterboxd's watched.csv). */
  logged?: boolean;
  /** The title was longer than a title can be: the row is reported `invalid_row`, never searched. */
  invalid?: true;
  /** A list row: which of the file's lists, where in it, and the item's note. */
  list?: ListMembership;
}

/** An item of one of the file's own lists (docs/lists.md). */
export interface ListMembership {
  /** The list's index in `ParsedFile.lists`. */
  index: number;
  /** The user's list it goes to, once the run has made (or found) it. */
  listId?: string;
  position: number;
  note?: string;
}

/** A list of the file (a Letterboxd ZIP's lists/*.csv), made private in the user's lists. */
export interface ImportedList {
  name: string;
  description: string;
  ranked: boolean;
}

/** A file read into rows; `skipped` counts entries that are not movies (TV, episodes). */
export interface ParsedFile {
  format: ImportFormat;
  rows: ImportRow[];
  skipped: number;
  /** The file's own lists, their items among `rows` (kind `list`). */
  lists?: ImportedList[];
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d/;

/** A real calendar date from 1874-01-01 as YYYY-MM-DD (a timestamp gives its UTC day); else undefined. */
export function toDate(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  let day = value.trim();
  if (TIMESTAMP.test(day)) {
    const at = Date.parse(day);
    if (Number.isNaN(at)) return undefined;
    day = new Date(at).toISOString().slice(0, 10);
  }
  const match = DAY.exec(day);
  if (!match) return undefined;
  const [y, m, d] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) {
    return undefined;
  }
  return y >= 1874 ? day : undefined;
}

/** A plausible release year, or undefined (Letterboxd and IMDb leave some empty). */
export function toYear(value: unknown): number | undefined {
  const n = typeof value === "number" ? value : Number(String(value ?? "").trim());
  return Number.isInteger(n) && n >= 1874 && n <= 2100 && String(value).trim() !== ""
    ? n
    : undefined;
}

/** A 1-10 rating from a 1-10 scale (IMDb, Trakt, Rating10), or undefined. */
export function ratingOf10(value: unknown): number | undefined {
  const text = String(value ?? "").trim();
  if (text === "") return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= 10 ? n : undefined;
}

/** A Letterboxd 0.5-5 star rating doubled to 1-10, or undefined. */
export function ratingOfStars(value: unknown): number | undefined {
  const text = String(value ?? "").trim();
  if (text === "") return undefined;
  return ratingOf10(Number(text) * 2);
}

/** A positive TMDB id, or undefined. */
export function toTmdbId(value: unknown): number | undefined {
  const n = typeof value === "number" ? value : Number(String(value ?? "").trim());
  return Number.isInteger(n) && n >= 1 && n <= 2 ** 31 - 1 && String(value).trim() !== ""
    ? n
    : undefined;
}

/** Review text trimmed to what a note holds, or undefined when empty. */
export function toReview(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  return text === "" ? undefined : [...text].slice(0, MAX_NOTE_LENGTH).join("");
}

/** The longest title a row may carry (the longest film title is about 200 characters). */
const MAX_TITLE = 500;

/**
 * A row without the keys whose value is undefined (rows are stored as JSON), its texts without
 * NUL characters: PostgreSQL text and jsonb cannot hold U+0000, and a file's stray NUL says
 * nothing about the film (a review left empty by it is no review). A title over 500 characters
 * is cut (with an ellipsis) and the row marked `invalid`.
 */
export function row(fields: ImportRow): ImportRow {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    const clean = typeof value === "string" ? value.replaceAll("\0", "") : value;
    if (clean !== undefined && !(key === "review" && clean === "")) out[key] = clean;
  }
  let title = String(out.title ?? "");
  if (title.length > MAX_TITLE) {
    title = [...title.slice(0, MAX_TITLE * 2)].slice(0, MAX_TITLE).join("") + "…";
    out.invalid = true;
  }
  out.title = title;
  return out as unknown as ImportRow;
}
