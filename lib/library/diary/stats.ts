/** GET /api/stats: a year of watching (or all of it) in numbers (docs/diary.md). */
import type { Sql } from "@/lib/platform/store/mod.ts";
import { hoursOf } from "./stats_figures.ts";
import { STATS_SQL } from "./stats_sql.ts";

/** A name and how many films of the period have it. */
interface NamedCount {
  name: string;
  count: number;
}

/** A viewing that opens or closes the period. */
interface WatchMark {
  catalogId: number;
  watchedOn: string;
}

/** The numbers of a year, or of all time (`year` null). */
export interface YearStats {
  year: number | null;
  /** Distinct movies. */
  films: number;
  viewings: number;
  rewatches: number;
  /**
   * Films of the period whose details were never fetched: the details job is filling them in,
   * and until then hours, directors, actors and genres leave them out (docs/catalog.md).
   */
  incomplete: number;
  /** Hours of the viewings whose runtime is known, to one decimal. */
  hours: number;
  ratings: { count: number; average: number | null; histogram: Record<string, number> };
  /** Viewings per month, January first; null for all time. */
  byMonth: number[] | null;
  genres: NamedCount[];
  directors: NamedCount[];
  actors: NamedCount[];
  decades: { decade: number; count: number }[];
  /** The best rated films of the period, best first. */
  topRated: number[];
  firstWatch: WatchMark | null;
  lastWatch: WatchMark | null;
}

// postgres.js parses json columns and PGlite may hand back text: read both.
function json<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}

function named(value: unknown): NamedCount[] {
  return json<NamedCount[]>(value).map((g) => ({ name: String(g.name), count: Number(g.count) }));
}

function mark(value: unknown): WatchMark | null {
  const m = json<WatchMark | null>(value);
  return m ? { catalogId: Number(m.catalogId), watchedOn: String(m.watchedOn) } : null;
}

// A JSON object of counts by "1".."n" as the full array of n counts.
function spread(value: unknown, length: number): number[] {
  const counts = json<Record<string, number>>(value);
  return Array.from({ length }, (_, i) => Number(counts[String(i + 1)] ?? 0));
}

/** Reads the numbers of `userId`'s `year` (null: all time) in one statement. */
export async function readYearStats(
  sql: Sql,
  userId: string,
  year: number | null,
): Promise<YearStats> {
  const [r] = await sql.query(STATS_SQL, [userId, year ?? 0]);
  const histogram = spread(r.histogram, 10);
  return {
    year,
    films: Number(r.films),
    viewings: Number(r.viewings),
    rewatches: Number(r.rewatches),
    incomplete: Number(r.incomplete),
    hours: hoursOf(Number(r.minutes)),
    ratings: {
      count: Number(r.ratingCount),
      average: r.ratingAverage === null ? null : Number(r.ratingAverage),
      histogram: Object.fromEntries(histogram.map((n, i) => [String(i + 1), n])),
    },
    byMonth: year === null ? null : spread(r.byMonth, 12),
    genres: named(r.genres),
    directors: named(r.directors),
    actors: named(r.actors),
    decades: json<{ decade: number; count: number }[]>(r.decades)
      .map((d) => ({ decade: Number(d.decade), count: Number(d.count) })),
    topRated: json<number[]>(r.topRated).map(Number),
    firstWatch: mark(r.firstWatch),
    lastWatch: mark(r.lastWatch),
  };
}
