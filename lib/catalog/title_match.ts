/**
 * Finding a movie by its title (docs/catalog.md): the one comparison key, the stored movies
 * that carry it, and whether a catalog search row has it. Choosing among the matches is not
 * this file's: the recommender prefers the nearest year and then popularity; the history import
 * and the webhooks want a unique answer (unique_match.ts).
 */
import type { Sql } from "../platform/store/mod.ts";
import { yearOf } from "./normalize.ts";

/**
 * The comparison key of a title: no accents, no case, no spaces, punctuation or symbols. The
 * stored titles' keys come from SQL's `public.title_key` (the generated columns
 * `movies.title_key` and `original_title_key`); this one keys the catalog search's rows.
 */
export function titleKey(title: string): string {
  return title.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, "");
}

// Typographic quotes and dashes, as word processors, Letterboxd exports and media servers write
// them: single quotes and primes, double quotes, and the hyphens and dashes of Unicode.
const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u2032\u2035\u02BC\uFF07]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033\u2036\uFF02]/g;
const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g;

/**
 * `text` with typographic quotes and dashes as their ASCII forms (’ to ', “ ” to ", – — to -),
 * the rest unchanged. TMDB's search matches the characters it is given, and its titles are
 * mostly written with the straight forms, so a search folds them first, as the comparison key
 * drops them.
 */
export function foldTypography(text: string): string {
  return text.replace(SINGLE_QUOTES, "'").replace(DOUBLE_QUOTES, '"').replace(DASHES, "-");
}

/** A catalog search row as far as title matching reads it. */
interface TitledRow {
  title: string;
  original_title?: string;
  release_date?: string;
}

/** Whether `row`'s title or original title has the comparison key `key`. */
export function hasTitleKey(row: TitledRow, key: string): boolean {
  return titleKey(row.title) === key || titleKey(row.original_title ?? "") === key;
}

/** The release year of a search row; 0 when unknown. */
export function rowYear(row: TitledRow): number {
  return yearOf(row.release_date);
}

/** A stored movie whose title or original title matches a wanted title. */
interface StoredTitleMatch {
  /** The wanted title's position in the list asked for, from 0. */
  index: number;
  catalogId: number;
  /** 0 when unknown. */
  year: number;
  popularity: number;
}

/**
 * The stored movies matching each of `titles` by title or original title, in one query. The
 * wanted titles are keyed by the same SQL function as the stored columns, so both sides share the
 * database's idea of lower case, and each side of the union is an index lookup. A blank title
 * (or one that keys to nothing) matches nothing.
 */
export async function storedTitleMatches(sql: Sql, titles: string[]): Promise<StoredTitleMatch[]> {
  if (titles.every((t) => t === "")) return [];
  const rows = await sql.query<
    { ord: number; catalog_id: number; year: number; popularity: number }
  >(
    `with wanted as (
       select w.ord::int as ord, public.title_key(w.t) as key
         from unnest($1::text[]) with ordinality as w(t, ord)
     )
     select w.ord, m.catalog_id, m.year, m.popularity
       from wanted w join public.movies m on m.title_key = w.key
      where w.key <> ''
     union
     select w.ord, m.catalog_id, m.year, m.popularity
       from wanted w join public.movies m on m.original_title_key = w.key
      where w.key <> ''`,
    [titles],
  );
  return rows.map((r) => ({
    index: Number(r.ord) - 1,
    catalogId: Number(r.catalog_id),
    year: Number(r.year) || 0,
    popularity: Number(r.popularity) || 0,
  }));
}
