/**
 * Which release dates a film shows on the calendar (docs/calendar.md): per type, its earliest
 * date in the user's region, else its earliest date of that type anywhere, marked with that
 * region. TMDB's types map as 1 premiere, 2 and 3 theatrical (limited and wide: the earlier
 * counts), 4 digital, 5 physical, 6 tv.
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

/** A stored film with its release dates as the details job keeps them. */
export interface CalendarFilm {
  catalogId: number;
  title: string;
  year: number | null;
  poster: string | null;
  releases: Record<string, { type: number; date: string; certification: string; note: string }[]>;
}

const TMDB_TYPES: Record<CalendarType, number[]> = {
  premiere: [1],
  theatrical: [2, 3],
  digital: [4],
  physical: [5],
  tv: [6],
};

type Release = CalendarFilm["releases"][string][number];

function earliest(releases: Release[] | undefined, codes: number[]): Release | null {
  let best: Release | null = null;
  for (const r of releases ?? []) {
    if (codes.includes(r.type) && (best === null || r.date < best.date)) best = r;
  }
  return best;
}

/** The film's events of `types` between `from` and `to` (inclusive), as seen from `region`. */
export function filmEvents(
  film: CalendarFilm,
  options: { region: string; types: CalendarType[]; from: string; to: string },
): CalendarEvent[] {
  const out: CalendarEvent[] = [];
  for (const type of options.types) {
    const codes = TMDB_TYPES[type];
    let chosen = earliest(film.releases[options.region], codes);
    let elsewhere: string | null = null;
    if (!chosen) {
      // Regions in code order, so a tie on the day always picks the same one (a stable UID).
      for (const code of Object.keys(film.releases).sort()) {
        const r = earliest(film.releases[code], codes);
        if (r && (chosen === null || r.date < chosen.date)) {
          chosen = r;
          elsewhere = code;
        }
      }
    }
    if (!chosen || chosen.date < options.from || chosen.date > options.to) continue;
    out.push({
      date: chosen.date,
      type,
      catalogId: film.catalogId,
      title: film.title,
      year: film.year,
      poster: film.poster,
      note: chosen.note,
      certification: chosen.certification,
      ...(elsewhere ? { region: elsewhere } : {}),
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
