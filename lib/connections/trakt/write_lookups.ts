/**
 * What the Trakt writes read besides the films they write (docs/trakt.md, "Writes and
 * scrobbles"): the movie objects of their answers, release days for `watched_at: "released"`,
 * and whether a user id in a path is the caller's own.
 */
import { EARLIEST_WATCH_DATE } from "@/lib/library/entries/entry_fields.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";
import { TRAKT_MOVIE_COLUMNS, traktMovie, type TraktMovieRow } from "./movie_object.ts";

/** The movie objects of `ids`, in one query, by catalog id. */
export async function movieObjects(
  sql: Sql,
  ids: number[],
): Promise<Map<number, ReturnType<typeof traktMovie>>> {
  if (ids.length === 0) return new Map();
  const rows = await sql.query<TraktMovieRow>(
    `select c.id as catalog_id, ${TRAKT_MOVIE_COLUMNS}
       from unnest($1::integer[]) as c(id) left join public.movies m on m.catalog_id = c.id`,
    [[...new Set(ids)]],
  );
  return new Map(rows.map((r) => [Number(r.catalog_id), traktMovie(r)]));
}

/** Trakt's `watched_at: "released"`: each film's stored release day, when it is a diary date. */
export async function releaseDays(
  sql: Sql,
  ids: number[],
  now: number,
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await sql.query<{ catalog_id: number; day: string | null }>(
    `select catalog_id, to_char(release_date, 'YYYY-MM-DD') as day from public.movies
      where catalog_id = any($1::integer[])`,
    [ids],
  );
  const tomorrow = new Date(now + 86_400_000).toISOString().slice(0, 10);
  return new Map(
    rows.filter((r) => r.day !== null && r.day >= EARLIEST_WATCH_DATE && r.day <= tomorrow)
      .map((r) => [Number(r.catalog_id), r.day!]),
  );
}

/** Whether `who` (`me`, a handle or a user id) names the user. */
export async function isSelf(tx: Sql, ask: { userId: string; who: string }): Promise<boolean> {
  const who = ask.who.toLowerCase();
  if (who === "me" || who === ask.userId) return true;
  const [row] = await tx.query<{ handle: string | null }>(
    `select handle from public.user_profiles where user_id = (select auth.uid())`,
  );
  return row?.handle?.toLowerCase() === who;
}
