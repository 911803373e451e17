/** What the evaluation reads and writes: a world of movies and users, generated or an instance's. */

/** One watched film of a user: the rows `public.user_watched_movies` holds. */
export interface Watch {
  catalogId: number;
  /** 1-10, null when unrated. */
  rating: number | null;
  /** The day the user watched it (YYYY-MM-DD), null when unknown. */
  watchedOn: string | null;
  /** When the entry was written (ISO). */
  createdAt: string;
}

/** A user's history as the recommenders may see it. */
export interface EvalUser {
  id: string;
  watched: Watch[];
  /** Films marked "Not interested", with when (ISO). */
  dismissed: { catalogId: number; createdAt: string }[];
  myList: number[];
  /** 👍 (1) and 👎 (-1) on picks; an instance's, none in the generated world. */
  feedback?: { catalogId: number; value: number; createdAt: string }[];
}

/**
 * A world: movie rows by column of `public.movies` (written as they are), and users. Columns the
 * store does not have are left out when loading, so a world outlives a schema change.
 */
export interface EvalData {
  movies: Record<string, unknown>[];
  users: EvalUser[];
}
