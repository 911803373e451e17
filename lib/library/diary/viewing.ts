/** A diary entry: one viewing of a movie, with its card's title, year and poster (docs/diary.md). */

/**
 * Who logged a viewing: the user, a history import (or a Trakt client's history sync), a media
 * server's webhook, a Trakt client's scrobble, or a Trakt check-in.
 */
export type ViewingSource = "manual" | "import" | "webhook" | "scrobble" | "checkin";

/** One entry of GET /api/diary. */
export interface DiaryEntry {
  id: string;
  catalogId: number;
  title: string;
  year: number;
  posterPath: string;
  watchedOn: string;
  rating: number | null;
  rewatch: boolean;
  note: string | null;
  source: ViewingSource;
}

/**
 * The entry columns over `v` (user_viewings) left joined to `m` (movies); a movie without a row
 * gives the fallback card's empty title, year 0 and no poster. `cursorAt` is the row's place in
 * the diary's order, to the microsecond, for the next page's cursor.
 */
export const DIARY_COLUMNS = `v.id::text as id, v.catalog_id as "catalogId",
    coalesce(m.title, '') as title, coalesce(m.year, 0) as year,
    coalesce(m.poster_path, '') as "posterPath", v.watched_on::text as "watchedOn",
    v.rating, v.rewatch, v.note, v.source,
    to_char(v.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "cursorAt"`;

/** Shapes one row of DIARY_COLUMNS as an entry with exactly its ten fields. */
export function toDiaryEntry(r: Record<string, unknown>): DiaryEntry {
  return {
    id: String(r.id),
    catalogId: Number(r.catalogId),
    title: String(r.title),
    year: Number(r.year),
    posterPath: String(r.posterPath),
    watchedOn: String(r.watchedOn),
    rating: r.rating === null ? null : Number(r.rating),
    rewatch: Boolean(r.rewatch),
    note: r.note === null ? null : String(r.note),
    source: String(r.source) as ViewingSource,
  };
}
