/**
 * The small world the recommendation tests run in: movies in the movies store, a user's
 * watched list and My List written straight with SQL, and a fake AI answer that behaves as a
 * model does (it honours the "do not recommend" list, but happily names watched movies).
 */
import type { Store } from "../../lib/store/mod.ts";
import type { FakeAnswer, RecordedRequest } from "./fake_ai.ts";
import { recommendationsContent } from "./fake_ai.ts";

/** A movie of the movies store. */
export interface SeedMovie {
  id: number;
  title: string;
  year: number;
  genres?: string[];
  originalTitle?: string;
  popularity?: number;
}

/** Movies `Film <id>` for ids from..to, with years and genres that vary. */
export function numberedMovies(from: number, to: number): SeedMovie[] {
  const movies: SeedMovie[] = [];
  for (let id = from; id <= to; id++) {
    movies.push({
      id,
      title: `Film ${id}`,
      year: 1990 + (id % 30),
      genres: id % 2 ? ["Drama", "Crime"] : ["Comedy"],
    });
  }
  return movies;
}

/** Writes movies into the movies store (one statement). */
export async function seedMovies(store: Store, movies: SeedMovie[]): Promise<void> {
  await store.query(
    `insert into public.movies (catalog_id, title, original_title, year, genres, popularity)
     select u.id, u.title, u.original_title, u.year,
            array(select json_array_elements_text(u.genres::json)), u.popularity
       from unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::text[], $6::float8[])
            as u(id, title, original_title, year, genres, popularity)
     on conflict (catalog_id) do nothing`,
    [
      movies.map((m) => m.id),
      movies.map((m) => m.title),
      movies.map((m) => m.originalTitle ?? m.title),
      movies.map((m) => m.year),
      movies.map((m) => JSON.stringify(m.genres ?? [])),
      movies.map((m) => m.popularity ?? 10),
    ],
  );
}

/** Marks `ids` watched by the user, the last one the most recent. */
export async function markWatched(store: Store, userId: string, ids: number[]): Promise<void> {
  await store.query(
    `insert into public.user_watched_movies (user_id, catalog_id, created_at)
     select $1, u.id, timestamptz '2026-01-01' + u.ord * interval '1 minute'
       from unnest($2::int[]) with ordinality as u(id, ord)
     on conflict do nothing`,
    [userId, ids],
  );
}

/** Sets the user's My List to `ids`, in that order. */
export async function setMyList(store: Store, userId: string, ids: number[]): Promise<void> {
  await store.query(
    `insert into public.user_my_list (user_id, catalog_ids) values ($1, $2::int[])
     on conflict (user_id) do update set catalog_ids = excluded.catalog_ids`,
    [userId, ids],
  );
}

/** The titles listed under "Do not recommend" in a recorded request's prompt. */
export function avoidedTitles(request: RecordedRequest): Set<string> {
  const user = request.body.messages.find((m: { role: string }) => m.role === "user").content;
  const section = user.split("Do not recommend any of these:\n")[1] ?? "";
  return new Set(
    section.split("\n").filter((l: string) => l.startsWith("- ")).map((l: string) => l.slice(2)),
  );
}

/** An AI that names the first `count` movies of `pool` not on the prompt's avoid list. */
export function modelLike(pool: SeedMovie[], count = 20): (r: RecordedRequest) => FakeAnswer {
  return (request) => {
    const avoid = avoidedTitles(request);
    const picks = pool.filter((m) => !avoid.has(`${m.title} (${m.year})`)).slice(0, count);
    return { content: recommendationsContent(picks) };
  };
}
