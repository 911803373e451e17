/**
 * Which release dates a film shows on the calendar (docs/calendar.md): per type, its earliest
 * date in the user's region, else its earliest date of that type anywhere, marked with that
 * region. The choice is made when the film's dates are stored (the `movie_release_firsts` table,
 * kept by a trigger on `movies.release_dates`, which also maps TMDB's types: 1 premiere, 2 and 3
 * theatrical, 4 digital, 5 physical, 6 tv); a read merges the film's two entries in SQL
 * (`firsts->'*' || firsts->region`) and this file turns the result into events.
 */
import { CALENDAR_TYPES, type CalendarType } from "./query.ts";

/** One event of GET /api/calendar. */
export interface CalendarEvent {
  date: string;
  type: CalendarType;
  catalogId: number;
  title: string;
  year: number | null;
  /** The full image URL, or null when the film has no poster. */
  poster: string | null;
  note: string;
  certification: string;
  /** Present only when the date is from another region than the user's. */
  region?: string;
}

/** A date as chosen for the user's region: day, certification, note, and the region when another. */
type ChosenDate = [string, string, string] | [string, string, string, string];

/** A stored film with the date each type shows in the user's region. */
export interface CalendarFilm {
  catalogId: number;
  title: string;
  year: number | null;
  poster: string | null;
  chosen: Partial<Record<string, ChosenDate>>;
}

/** The film's events of `types` between `from` and `to` (inclusive). */
export function filmEvents(
  film: CalendarFilm,
  options: { types: CalendarType[]; from: string; to: string },
): CalendarEvent[] {
  const out: CalendarEvent[] = [];
  for (const type of options.types) {
    const chosen = film.chosen[type];
    // The date is chosen first, then compared: a region's own later date wins over an earlier
    // one elsewhere even when only the earlier is inside the span.
    if (!chosen || chosen[0] < options.from || chosen[0] > options.to) continue;
    out.push({
      date: chosen[0],
      type,
      catalogId: film.catalogId,
      title: film.title,
      year: film.year,
      poster: film.poster,
      note: chosen[2],
      certification: chosen[1],
      ...(chosen.length === 4 ? { region: chosen[3] } : {}),
    });
  }
  return out;
}

/** Events by date, then title, film and type (the order a day lists them). */
export function byDate(a: CalendarEvent, b: CalendarEvent): number {
  return a.date.localeCompare(b.date) ||
    a.title.localeCompare(b.title, "en") ||
    a.catalogId - b.catalogId ||
    CALENDAR_TYPES.indexOf(a.type) - CALENDAR_TYPES.indexOf(b.type);
}
