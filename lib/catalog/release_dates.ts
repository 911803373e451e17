/**
 * The detail's extra appends as stored (docs/catalog.md, "The details job"): release dates per
 * region and type, keywords, the IMDb id. Read entry by entry, so one odd entry is skipped
 * rather than costing the film its details.
 */
import { z } from "zod";
import type { TmdbMovie } from "./tmdb_schemas.ts";

/** One release in a region: TMDB's type (1 premiere ... 6 TV), its day, certification and note. */
interface StoredRelease {
  type: number;
  /** YYYY-MM-DD (TMDB sends a UTC timestamp of midnight). */
  date: string;
  certification: string;
  note: string;
}

/** Release dates by region (ISO 3166-1), each region's by type, then date. */
export type StoredReleases = Record<string, StoredRelease[]>;

const release = z.object({
  type: z.number().int().min(1).max(6),
  release_date: z.string().regex(/^\d{4}-\d{2}-\d{2}/),
  certification: z.string().nullish(),
  note: z.string().nullish(),
});
const region = z.object({
  iso_3166_1: z.string().regex(/^[A-Z]{2}$/),
  release_dates: z.array(z.unknown()),
});
const keyword = z.object({ name: z.string().trim().min(1) });

/** The release dates a detail body appended, or null when it appended none. */
export function releasesOf(movie: Pick<TmdbMovie, "release_dates">): StoredReleases | null {
  if (!movie.release_dates) return null;
  const out: StoredReleases = {};
  for (const raw of movie.release_dates.results) {
    const r = region.safeParse(raw);
    if (!r.success) continue;
    const dates = r.data.release_dates.flatMap((d) => {
      const parsed = release.safeParse(d);
      if (!parsed.success) return [];
      const { type, release_date, certification, note } = parsed.data;
      return [{
        type,
        date: release_date.slice(0, 10),
        certification: certification ?? "",
        note: note ?? "",
      }];
    });
    if (dates.length === 0) continue;
    dates.sort((a, b) => a.type - b.type || a.date.localeCompare(b.date));
    out[r.data.iso_3166_1] = [...(out[r.data.iso_3166_1] ?? []), ...dates];
  }
  return out;
}

/** The keyword names a detail body appended (once each, in TMDB's order), or null. */
export function keywordsOf(movie: Pick<TmdbMovie, "keywords">): string[] | null {
  if (!movie.keywords) return null;
  const names = movie.keywords.keywords.flatMap((k) => {
    const parsed = keyword.safeParse(k);
    return parsed.success ? [parsed.data.name] : [];
  });
  return [...new Set(names)];
}

/** The IMDb id (`tt` and digits) a detail body appended, or null. */
export function imdbIdOf(movie: Pick<TmdbMovie, "external_ids">): string | null {
  const id = movie.external_ids?.imdb_id ?? "";
  return /^tt\d{1,12}$/.test(id) ? id : null;
}
