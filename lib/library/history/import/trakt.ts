/**
 * Trakt's JSON exports (docs/history.md): watched-movies (`last_watched_at`), history
 * (`watched_at`, `type` movie or episode), ratings-movies (`rated_at`, `rating` 1-10) and
 * watchlist-movies (`listed_at`). Each movie carries `movie.ids.tmdb`; shows and episodes are
 * skipped.
 */
import { type ImportRow, ratingOf10, row, type RowKind, toDate, toTmdbId, toYear } from "./rows.ts";

type Entry = Record<string, unknown>;

const isObject = (value: unknown): value is Entry =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether parsed JSON is a Trakt export: an array of entries naming a movie, show or episode. */
export function isTraktExport(json: unknown): json is Entry[] {
  return Array.isArray(json) && json.length > 0 && json.every(isObject) &&
    json.some((e) => isObject(e.movie) || isObject(e.show) || isObject(e.episode));
}

function kindOf(entry: Entry): RowKind {
  if (entry.rating !== undefined || entry.rated_at !== undefined) return "rating";
  if (entry.listed_at !== undefined) return "watchlist";
  if (entry.watched_at !== undefined) return "diary";
  return "watched";
}

/**
 * The movie rows of a Trakt export, and how many entries were skipped as not movies; `pause`
 * (a slicer's tick) gives the event loop a turn now and then.
 */
export async function traktRows(
  entries: Entry[],
  pause: () => Promise<void> | undefined = () => undefined,
): Promise<{ rows: ImportRow[]; skipped: number }> {
  let skipped = 0;
  const rows: ImportRow[] = [];
  for (let i = 0; i < entries.length; i++) {
    if (i % 256 === 0) await pause();
    const entry = entries[i];
    const movie = entry.movie;
    const type = typeof entry.type === "string" ? entry.type : "movie";
    if (!isObject(movie) || type !== "movie") {
      skipped++;
      continue;
    }
    const ids = isObject(movie.ids) ? movie.ids : {};
    const title = typeof movie.title === "string" ? movie.title.trim() : "";
    const tmdbId = toTmdbId(ids.tmdb);
    if (!title && tmdbId === undefined) {
      skipped++;
      continue;
    }
    const kind = kindOf(entry);
    rows.push(row({
      kind,
      tmdbId,
      title,
      year: toYear(movie.year),
      date: toDate(entry.rated_at ?? entry.listed_at ?? entry.watched_at ?? entry.last_watched_at),
      rating: kind === "rating" ? ratingOf10(entry.rating) : undefined,
      // A history entry is one play; the watched list's last play counts only without them.
      viewing: kind === "diary" ? true : undefined,
      lastPlay: kind === "watched" ? true : undefined,
    }));
  }
  return { rows, skipped };
}
