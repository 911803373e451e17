/**
 * The SQL fragments of a paged list read (docs/entries.md): the columns a cursor is made of and
 * the condition "after the cursor" in each sort's order (keyset paging, so a page costs the
 * same on page 1 and page 100, and nothing is skipped or repeated when the list changes in
 * between). They follow the order of list_sql.ts exactly: the sort key with nulls last, then the
 * list's own order.
 */
import type { ListQuery } from "./list_query.ts";

// The sort key's expression, its type, and how it reads as text for the cursor.
type ListName = "watched" | "mylist";

const KEYS: Record<string, { expr: string; type: string; text: string }> = {
  watched_on: {
    expr: "l.watched_on",
    type: "date",
    text: `to_char(l.watched_on, 'YYYY-MM-DD')`,
  },
  rating: { expr: "l.rating", type: "int", text: "l.rating::text" },
  title: {
    expr: `nullif(m.title, '') collate "und-x-icu"`,
    type: "text",
    text: "nullif(m.title, '')",
  },
  year: { expr: "nullif(m.year, 0)", type: "int", text: "nullif(m.year, 0)::text" },
  runtime: { expr: "nullif(m.runtime, 0)", type: "int", text: "nullif(m.runtime, 0)::text" },
};

/** Whether the read sorts by a key before the list's own order (the cursor carries it). */
export function hasSortKey(q: ListQuery): boolean {
  return q.sort in KEYS;
}

/** The columns a cursor is made of: `cursor_key` (text or null) and `cursor_at` (text). */
export function cursorColumns(list: ListName, q: ListQuery): string {
  const key = KEYS[q.sort]?.text ?? "null::text";
  const at = list === "watched"
    ? `to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
    : "l.ord::text";
  return `${key} as cursor_key,\n    ${at} as cursor_at`;
}

/**
 * The condition "after the cursor": `$key` the key's text (null sorts last), `$at` the
 * watched row's created_at or My List's position, `$id` the card's catalog id.
 */
export function afterCursor(
  list: ListName,
  q: ListQuery,
  params: { key?: string; at: string; id: string },
): string {
  const { key, at, id } = params;
  const cmp = q.order === "asc" ? ">" : "<";
  const own = q.sort === "added" || q.sort === "saved";
  // The list's own order breaks ties: newest first for watched, saved order for My List.
  let tie: string;
  if (list === "watched") {
    tie = `(l.created_at, l.catalog_id) ${own ? cmp : "<"} (${at}::timestamptz, ${id}::int)`;
  } else {
    // The card's position now; when it has left the list, the one after it took its place.
    const back = own && cmp === "<" ? 0 : 1;
    const place = `coalesce(array_position(s.catalog_ids, ${id}::int), ${at}::bigint - ${back})`;
    tie = `l.ord ${own ? cmp : ">"} ${place}`;
  }
  if (own) return `\n    and ${tie}`;
  const k = KEYS[q.sort];
  const value = `${key!}::${k.type}`;
  return `\n    and (case when ${value} is null then ${k.expr} is null and ${tie}
      else ${k.expr} is null or ${k.expr} ${cmp} ${value}
        or (${k.expr} = ${value} and ${tie}) end)`;
}
