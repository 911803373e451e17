/**
 * Movie cards: a stored movie as every list shows it (the watched list and My List, the user's
 * own lists, the year in review, the recommendation shelf, the API's MovieCard), catalog ids
 * hydrated from the movies store in one query per list.
 */

/** A movie card of GET /api/watched and GET /api/mylist. */
export interface MovieCard {
  catalogId: number;
  title: string;
  year: number;
  posterPath: string;
  genres: string[];
  runtime: number;
}

/**
 * The card columns over `l` (the list, with `catalog_id`) left joined to `m` (movies); an id
 * without a movie row gives the fallback card of docs/api.md.
 */
export const CARD_COLUMNS = `l.catalog_id as "catalogId",
    coalesce(m.title, '') as title,
    coalesce(m.year, 0) as year,
    coalesce(m.poster_path, '') as "posterPath",
    coalesce(m.genres, '{}') as genres,
    coalesce(m.runtime, 0) as runtime`;

/** The store's own hydration of a list of ids, in order (the benchmark's reference). */
export const HYDRATE_SQL = `select ${CARD_COLUMNS}
  from unnest($1::integer[]) with ordinality as l(catalog_id, ord)
  left join public.movies m on m.catalog_id = l.catalog_id
  order by l.ord`;

/** Shapes one row of CARD_COLUMNS as a card with exactly the six fields. */
export function toCard(r: Record<string, unknown>): MovieCard {
  return {
    catalogId: Number(r.catalogId),
    title: String(r.title),
    year: Number(r.year),
    posterPath: String(r.posterPath),
    genres: (r.genres as string[]).map(String),
    runtime: Number(r.runtime),
  };
}
