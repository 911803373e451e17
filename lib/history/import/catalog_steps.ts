/**
 * What a history import asks of the catalog: searches through the shared window as background
 * work (at most half of each window), tried again on a transient failure, and the search rows
 * it matched stored as light rows so the cards of those movies hydrate at once.
 */
import { retry } from "../../async/retry.ts";
import { genreNames } from "../../catalog/genres.ts";
import { upsertLight } from "../../catalog/movies_store.ts";
import type { MovieSource, SearchRow } from "../../catalog/types.ts";
import type { Clock } from "../../clock.ts";
import { Problem } from "../../problem.ts";
import type { Sql } from "../../store/mod.ts";
import type { UnitSearch } from "./match.ts";

const SEARCH_ATTEMPTS = 3;

/** The import's search: a transient failure (the window busy, TMDB down a moment) is retried. */
export function retryingSearch(catalog: MovieSource, clock: Clock): UnitSearch {
  return (title, year) =>
    retry(
      async () =>
        (await catalog.search(title, { year, wait: true, background: true })).value.results,
      {
        attempts: SEARCH_ATTEMPTS,
        retryable: (error) =>
          error instanceof Problem && (error.status === 429 || error.status >= 500),
        pause: (attempt) => clock.sleep(1000 * attempt),
      },
    );
}

/** Stores matched search rows as light movie rows. */
export function rememberRows(store: Sql, rows: SearchRow[], now: number): Promise<void> {
  return upsertLight(
    store,
    rows.map((r) => ({
      catalog_id: r.id,
      title: r.title,
      original_title: r.original_title,
      release_date: r.release_date || null,
      year: Number(r.release_date?.slice(0, 4)) || 0,
      poster_path: r.poster_path,
      genre_ids: r.genre_ids,
      genres: genreNames(r.genre_ids),
      overview: "",
      vote_average: r.vote_average,
      vote_count: 0,
      popularity: 0,
    })),
    { now },
  );
}
