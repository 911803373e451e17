/**
 * The generated world of `deno task eval` (docs/recommend.md, "Measuring recommendations"):
 * seeded, so the same seed and sizes give the same movies, users and histories everywhere.
 */
import { Random } from "./random.ts";
import type { EvalData } from "./types.ts";
import { generateMovies, type WorldMovie } from "./world_movies.ts";
import { GENRES } from "./world_names.ts";
import { generateUsers } from "./world_users.ts";

const GENRE_IDS = new Map<string, number>(GENRES.map((g) => [g.name, g.id]));

/** A stored movie row (columns of public.movies) for a generated film. */
function movieRow(m: WorldMovie): Record<string, unknown> {
  return {
    catalog_id: m.id,
    title: m.title,
    original_title: m.title,
    year: m.year,
    release_date: `${m.year}-06-15`,
    genres: m.genres,
    genre_ids: m.genres.map((g) => GENRE_IDS.get(g)!),
    keywords: m.keywords,
    directors: m.directors,
    actors: m.actors,
    runtime: m.runtime,
    popularity: m.popularity,
    vote_average: m.voteAverage,
    vote_count: m.voteCount,
    original_language: m.language,
    collection_id: m.collection?.id ?? null,
    collection_name: m.collection?.name ?? null,
    has_details: true,
    overview: `A ${m.genres.join(", ").toLowerCase()} film about ${m.keywords.join(", ")}.`,
  };
}

/** Generates a world of `movies` films and `users` users from `seed`. */
export function generateWorld(options: { movies: number; users: number; seed: number }): EvalData {
  const random = new Random(options.seed);
  const movies = generateMovies(random, options.movies);
  const users = generateUsers(random, movies, options.users);
  return { movies: movies.map(movieRow), users };
}
