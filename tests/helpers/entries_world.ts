/**
 * A watched list and a My List covering every sort and filter edge (docs/entries.md): ties,
 * unrated and undated entries, a light row (no runtime), a fallback card (no movie row), an
 * unknown year, accented and lower-case titles.
 */
import type { Store } from "@/lib/platform/store/mod.ts";

// id, title, year, runtime, genres; 5 has no movie row (a fallback card).
const MOVIES: [number, string, number, number | null, string[]][] = [
  [1, "Amélie", 2001, 122, ["Comedy", "Romance"]],
  [2, "alien", 1979, 117, ["Horror", "Science Fiction"]],
  [3, "Zodiac", 2007, 157, ["Crime", "Drama", "Mystery"]],
  [4, "Light Row", 2010, null, ["Drama"]],
  [6, "Brazil", 1985, 132, ["Comedy", "Science Fiction"]],
  [7, "Éclair", 0, 90, ["Drama"]],
];

// id, rating, watched_on, in the order they were added (one minute apart).
const WATCHED: [number, number | null, string | null][] = [
  [1, 9, "2024-01-05"],
  [2, 4, "2023-10-31"],
  [3, null, "2024-06-01"],
  [4, 7, null],
  [5, null, "2022-01-01"],
  [6, 9, "2024-01-05"],
  [7, 2, "2021-12-12"],
];

/** My List's saved order of the same movies. */
export const MY_LIST = [3, 1, 5, 2, 4, 7];

/** Stores the movies, `watcher`'s watched list and `saver`'s My List. */
export async function seedHistory(store: Store, users: { watcher: string; saver: string }) {
  for (const [id, title, year, runtime, genres] of MOVIES) {
    await store.query(
      `insert into public.movies (catalog_id, title, original_title, year, runtime, genres,
         poster_path, has_details)
       values ($1, $2, $2, $3, $4, $5, $6, $7)
       on conflict (catalog_id) do update set title = excluded.title, year = excluded.year,
         runtime = excluded.runtime, genres = excluded.genres,
         poster_path = excluded.poster_path, has_details = excluded.has_details`,
      [id, title, year, runtime, genres, `/p${id}.jpg`, runtime !== null],
    );
  }
  const start = Date.parse("2026-01-01T00:00:00Z");
  for (const [i, [id, rating, watchedOn]] of WATCHED.entries()) {
    await store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, created_at, rating, watched_on)
       values ($1, $2, $3, $4, $5)`,
      [users.watcher, id, new Date(start + i * 60_000).toISOString(), rating, watchedOn],
    );
  }
  await store.query(
    `insert into public.user_my_list (user_id, catalog_ids) values ($1, $2)`,
    [users.saver, MY_LIST],
  );
}
