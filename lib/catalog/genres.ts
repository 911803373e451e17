/**
 * TMDB's fixed movie genre list. `/genre/movie/list` is outside the three allowed paths
 * (docs/catalog.md), so popular and search rows, which carry only `genre_ids`, are named
 * through this table (ids as in the official OpenAPI example of /3/genre/movie/list).
 */

/** Genre id → English name. */
export const MOVIE_GENRES: ReadonlyMap<number, string> = new Map([
  [28, "Action"],
  [12, "Adventure"],
  [16, "Animation"],
  [35, "Comedy"],
  [80, "Crime"],
  [99, "Documentary"],
  [18, "Drama"],
  [10751, "Family"],
  [14, "Fantasy"],
  [36, "History"],
  [27, "Horror"],
  [10402, "Music"],
  [9648, "Mystery"],
  [10749, "Romance"],
  [878, "Science Fiction"],
  [10770, "TV Movie"],
  [53, "Thriller"],
  [10752, "War"],
  [37, "Western"],
]);

/** The names of `ids`, in order; ids TMDB may add later and this table lacks are skipped. */
export function genreNames(ids: readonly number[]): string[] {
  const names: string[] = [];
  for (const id of ids) {
    const name = MOVIE_GENRES.get(id);
    if (name) names.push(name);
  }
  return names;
}
