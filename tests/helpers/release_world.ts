/**
 * Release dates for the release-alert tests (docs/availability.md, "Release alerts"): TMDB's
 * `release_dates` append as the fake serves it, and a stored movie with its dates and the time
 * its details were fetched.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";
import { detailBody, type FakeTmdb } from "./fake_tmdb.ts";

/** Dates by region: [TMDB type, YYYY-MM-DD] pairs. */
type Releases = Record<string, [number, string][]>;

/** TMDB's `release_dates` append for `releases`. */
function releaseAppend(releases: Releases) {
  return {
    results: Object.entries(releases).map(([region, dates]) => ({
      iso_3166_1: region,
      release_dates: dates.map(([type, date]) => ({
        type,
        release_date: `${date}T00:00:00.000Z`,
        certification: "",
        note: "",
        iso_639_1: "",
        descriptors: [],
      })),
    })),
  };
}

/** The fake TMDB serves `id` with these release dates and no streaming offers. */
export function serveReleases(fake: FakeTmdb, id: number, releases: Releases) {
  fake.movies.set(
    id,
    detailBody(id, {
      title: `Film ${id}`,
      release_dates: releaseAppend(releases),
      "watch/providers": { results: {} },
    }),
  );
}

/** The stored form of `releases` (lib/catalog/release_dates.ts). */
function storedReleases(releases: Releases) {
  return Object.fromEntries(
    Object.entries(releases).map(([region, dates]) => [
      region,
      dates.map(([type, date]) => ({ type, date, certification: "", note: "" })),
    ]),
  );
}

/**
 * Stores `id` with `releases`, its details fetched at `fetchedAt` and its providers at
 * `providersAt` (default: just fetched, so the availability plan leaves it out).
 */
export async function seedReleases(
  sql: Sql,
  movie: { id: number; releases: Releases; fetchedAt: number; providersAt?: number },
): Promise<void> {
  await sql.query(
    `insert into public.movies (catalog_id, title, original_title, year, runtime, genres,
       poster_path, has_details, cached_at, release_dates, watch_providers, providers_cached_at)
     values ($1, $2, $2, 2026, 100, '{Drama}', '/p.jpg', true, $3, $4::text::jsonb, '{}'::jsonb,
       $5)
     on conflict (catalog_id) do update set cached_at = excluded.cached_at,
       release_dates = excluded.release_dates, watch_providers = excluded.watch_providers,
       providers_cached_at = excluded.providers_cached_at`,
    [
      movie.id,
      `Film ${movie.id}`,
      new Date(movie.fetchedAt).toISOString(),
      JSON.stringify(storedReleases(movie.releases)),
      new Date(movie.providersAt ?? movie.fetchedAt).toISOString(),
    ],
  );
}

/** The stored YYYY-MM-DD `days` after the day of `now` (negative: before). */
export function dayFrom(now: number, days: number): string {
  return new Date(now + days * 86_400_000).toISOString().slice(0, 10);
}
