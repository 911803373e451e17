/**
 * Movies with stored watch providers for the my-services and availability tests: a provider
 * offer as TMDB sends it, a region's offers, and a seeded movie row.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";

// Providers the tests use, with ids no real provider has: a PostgreSQL test database is shared
// by every test file, and the fixtures' real providers (movie 550's) must not mix with these.
export const NETFLIX = { provider_id: 990008, provider_name: "Netflix", logo_path: "/netflix.jpg" };
export const PRIME = {
  provider_id: 990009,
  provider_name: "Amazon Prime Video",
  logo_path: "/prime.jpg",
};
export const MUBI = { provider_id: 990011, provider_name: "MUBI", logo_path: "/mubi.jpg" };
export const APPLE = { provider_id: 990002, provider_name: "Apple TV", logo_path: "/apple.jpg" };

/** Provider id `n` of the tests (8 Netflix, 9 Prime, 11 MUBI, 2 Apple). */
export const P = (n: number): number => 990000 + n;

type Offer = typeof NETFLIX;

/** One region's offers by kind, with display priorities in the order given. */
export function regionOffers(kinds: Partial<Record<string, Offer[]>>): Record<string, unknown> {
  const out: Record<string, unknown> = { link: "https://www.themoviedb.org/movie/1/watch" };
  for (const [kind, offers] of Object.entries(kinds)) {
    out[kind] = (offers ?? []).map((o, i) => ({ ...o, display_priority: i + 1 }));
  }
  return out;
}

/** Stores a movie with `providers` (TMDB's `results`, per region) fetched at `at`. */
export async function seedMovie(
  sql: Sql,
  movie: { id: number; title?: string; providers?: Record<string, unknown>; at?: number },
): Promise<void> {
  await sql.query(
    `insert into public.movies (catalog_id, title, original_title, year, runtime, genres,
       poster_path, has_details, watch_providers, providers_cached_at)
     values ($1, $2, $2, 2001, 100, '{Drama}', '/p.jpg', true, $3::text::jsonb, $4)
     on conflict (catalog_id) do update set watch_providers = excluded.watch_providers,
       providers_cached_at = excluded.providers_cached_at`,
    [
      movie.id,
      movie.title ?? `Movie ${movie.id}`,
      movie.providers ? JSON.stringify(movie.providers) : null,
      movie.providers ? new Date(movie.at ?? 0).toISOString() : null,
    ],
  );
}
