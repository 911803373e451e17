/**
 * The user's own lists as Trakt's `users/:id/lists` reads answer them (docs/trakt.md, "Reads"):
 * a list's `ids.trakt` is its stable number, its slug its name in lower case with dashes; the
 * items are movies in the list's order, paginated.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";
import { traktMovie, traktMovieColumns, type TraktMovieRow, traktSlug } from "./movie_object.ts";
import { type PageAsk, pageSql } from "./pagination.ts";
import { isoSql } from "./sync_reads.ts";

/** Trakt's privacy of a list's visibility: an unlisted list is shared by its link. */
const PRIVACY: Record<string, string> = { private: "private", unlisted: "link", public: "public" };

interface ListRow {
  trakt_id: string;
  id: string;
  name: string;
  description: string;
  visibility: string;
  ranked: boolean;
  created_at: string;
  updated_at: string;
  item_count: number;
}

const LIST_SQL = `select l.trakt_id::text as trakt_id, l.id, l.name, l.description, l.visibility,
    l.ranked, ${isoSql("l.created_at")} as created_at, ${isoSql("l.updated_at")} as updated_at,
    (select count(*)::int from public.user_list_items i where i.list_id = l.id) as item_count
  from public.user_lists l where l.user_id = $1::uuid`;

/** A list's slug: its name in lower case with dashes (the list's number when that is empty). */
function listSlug(row: ListRow): string {
  return traktSlug(Number(row.trakt_id), row.name, null);
}

function traktList(row: ListRow, user: Record<string, unknown>) {
  return {
    name: row.name,
    description: row.description,
    privacy: PRIVACY[row.visibility] ?? "private",
    type: "personal",
    display_numbers: row.ranked,
    allow_comments: false,
    sort_by: "rank",
    sort_how: "asc",
    created_at: row.created_at,
    updated_at: row.updated_at,
    item_count: row.item_count,
    comment_count: 0,
    likes: 0,
    ids: { trakt: Number(row.trakt_id), slug: listSlug(row) },
    user,
  };
}

/** `GET /users/me/lists`: the user's lists, the most recently changed first. */
export async function readTraktLists(sql: Sql, userId: string, user: Record<string, unknown>) {
  const rows = await sql.query<ListRow>(`${LIST_SQL} order by l.updated_at desc, l.id`, [userId]);
  return rows.map((r) => traktList(r, user));
}

/** The list `id` names (its number or its slug) among the user's own, or null. */
async function findList(sql: Sql, userId: string, id: string): Promise<ListRow | null> {
  if (/^\d{1,18}$/.test(id)) {
    const [row] = await sql.query<ListRow>(`${LIST_SQL} and l.trakt_id = $2::bigint`, [
      userId,
      id,
    ]);
    return row ?? null;
  }
  const rows = await sql.query<ListRow>(`${LIST_SQL} order by l.trakt_id`, [userId]);
  return rows.find((r) => listSlug(r) === id.toLowerCase()) ?? null;
}

/** `GET /users/me/lists/:id`: one list, or null when it is not the user's. */
export async function readTraktList(
  sql: Sql,
  userId: string,
  options: { id: string; user: Record<string, unknown> },
) {
  const row = await findList(sql, userId, options.id);
  return row ? traktList(row, options.user) : null;
}

/**
 * `GET /users/me/lists/:id/items`: the list's movies in its order (`rank` the position, `id`
 * the film's catalog id, `notes` the item's note), a page of them and the count; null when the
 * list is not the user's.
 */
export async function readTraktListItems(
  sql: Sql,
  userId: string,
  options: { id: string; page: PageAsk | null; full?: boolean },
) {
  const list = await findList(sql, userId, options.id);
  if (!list) return null;
  const rows = await sql.query<TraktMovieRow & Record<string, unknown>>(
    `select i.catalog_id, i.position, i.note, ${isoSql("i.added_at")} as listed_at,
       ${traktMovieColumns(options.full)}
       from public.user_list_items i
       left join public.movies m on m.catalog_id = i.catalog_id
      where i.list_id = $1::uuid
      order by i.position${pageSql(options.page)}`,
    [list.id],
  );
  const items = rows.map((r) => ({
    rank: r.position as number,
    id: r.catalog_id,
    listed_at: r.listed_at as string,
    notes: (r.note as string | null) ?? null,
    type: "movie",
    movie: traktMovie(r, options),
  }));
  return { items, total: list.item_count };
}
