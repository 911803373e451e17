/**
 * The search hits a generation resolved its picks to, kept in the movies store as light rows
 * (README.md, "Reasons, dismissals and where to watch"): every recommended movie then has a title the next prompt can name,
 * "not interested" included. A movie the store already has is left as it is.
 */
import { genreNames } from "../catalog/genres.ts";
import { upsertLight } from "../catalog/movies_store.ts";
import type { Sql } from "../platform/store/mod.ts";

/** The fields of a catalog search hit that a light row keeps. */
interface HitFields {
  id: number;
  title: string;
  original_title?: string;
  release_date?: string;
  poster_path?: string;
  vote_average?: number;
  genre_ids?: number[];
}

/** Stores the hits the movies store lacks as light rows (has_details false). */
export async function rememberHits(
  sql: Sql,
  hits: HitFields[],
  options: { now: number },
): Promise<void> {
  if (hits.length === 0) return;
  const known = await sql.query<{ catalog_id: number }>(
    "select catalog_id from public.movies where catalog_id = any($1::int[])",
    [hits.map((h) => h.id)],
  );
  const have = new Set(known.map((r) => Number(r.catalog_id)));
  const rows = hits.filter((h) => !have.has(h.id)).map((h) => ({
    catalog_id: h.id,
    title: h.title,
    original_title: h.original_title ?? h.title,
    release_date: /^\d{4}-\d{2}-\d{2}$/.test(h.release_date ?? "") ? h.release_date! : null,
    year: Number(h.release_date?.slice(0, 4)) || 0,
    poster_path: h.poster_path ?? "",
    genre_ids: h.genre_ids ?? [],
    genres: genreNames(h.genre_ids ?? []),
    overview: "",
    vote_average: h.vote_average ?? 0,
    vote_count: 0,
    popularity: 0,
  }));
  await upsertLight(sql, rows, options);
}
