/**
 * The statements of a list read, one per sort, filter and session check, built once and kept.
 * Every variant is still one statement, whatever the list's length (docs/api.md).
 */
import {
  AVAILABILITY_COLUMN,
  AVAILABILITY_JOIN,
  AVAILABLE_FILTER,
} from "@/lib/catalog/my_streaming/availability_sql.ts";
import { CARD_COLUMNS } from "@/lib/catalog/cards.ts";
import { ENTRY_COLUMNS } from "./entry.ts";
import type { ListQuery } from "./list_query.ts";
import type { SessionCheck } from "@/lib/platform/session_check.ts";
import { afterCursor, cursorColumns, hasSortKey } from "./page_sql.ts";

/** Which list a statement reads. */
export type ListName = "watched" | "mylist";

/**
 * How a read checks the token: not at all (the page already did), the user alone (a token
 * without a session), or its session (`$2`).
 */
type ReadCheck = "unchecked" | "user" | "session";

const checkOf = (session?: SessionCheck): ReadCheck =>
  !session ? "unchecked" : session.sessionId === null ? "user" : "session";

// Unknown values (no movie row, a light row, no rating, no date) become null, and nulls come
// last whichever way the list is sorted. Titles sort as people read them (ICU's root collation,
// the same on PGlite, PostgreSQL and Supabase), then byte-wise so equal-looking titles keep
// one order.
function sortKey(q: ListQuery): string {
  const dir = q.order;
  switch (q.sort) {
    case "added":
      return `l.created_at ${dir}, l.catalog_id ${dir}`;
    case "saved":
      return `l.ord ${dir}`;
    case "watched_on":
      return `l.watched_on ${dir} nulls last`;
    case "rating":
      return `l.rating ${dir} nulls last`;
    case "title":
      return `nullif(m.title, '') collate "und-x-icu" ${dir} nulls last, m.title collate "C" ${dir}`;
    case "year":
      return `nullif(m.year, 0) ${dir} nulls last`;
    case "runtime":
      return `nullif(m.runtime, 0) ${dir} nulls last`;
  }
}

function orderBy(list: ListName, q: ListQuery): string {
  const key = sortKey(q);
  // Ties fall back to the list's own order, so every sort is deterministic.
  if (list === "mylist") return q.sort === "saved" ? key : `${key}, l.ord`;
  if (q.sort === "added") return key;
  return `${key}, l.created_at desc, l.catalog_id desc`;
}

function filters(q: ListQuery, genreParam: string): string {
  let where = "";
  if (q.genre !== undefined) {
    where +=
      `\n    and exists (select 1 from unnest(m.genres) g where lower(g) = lower(${genreParam}))`;
  }
  if (q.rated === true) where += "\n    and l.rating is not null";
  if (q.rated === false) where += "\n    and l.rating is null";
  if (q.availableMine) where += AVAILABLE_FILTER;
  return where;
}

// The list's rows joined to their movies, scoped to the user `$1`.
function fromSql(list: ListName, q: ListQuery): string {
  // Only a read that asks for the badges joins the user's offers.
  const services = q.includeAvailability ? `\n  ${AVAILABILITY_JOIN}` : "";
  return list === "watched"
    ? `public.user_watched_movies l
  left join public.movies m on m.catalog_id = l.catalog_id${services}
  where l.user_id = $1::uuid`
    : `public.user_my_list s
  cross join lateral unnest(s.catalog_ids) with ordinality as l(catalog_id, ord)
  left join public.movies m on m.catalog_id = l.catalog_id${services}
  where s.user_id = $1::uuid`;
}

// The total of a read without a filter, or filtered by rating alone, is the count the writers
// keep (the watched list's period 0, My List's array length): one row, whatever the list's
// length. A genre or "available to me" filter counts the filtered rows (docs/entries.md).
function keptTotal(list: ListName, q: ListQuery): string | null {
  if (q.genre !== undefined || q.availableMine) return null;
  if (list === "mylist") {
    return `coalesce((select cardinality(t.catalog_ids) from public.user_my_list t
      where t.user_id = $1::uuid), 0)`;
  }
  const kept = q.rated === undefined ? "c.movies" : q.rated ? "c.rated" : "c.movies - c.rated";
  return `coalesce((select ${kept} from public.user_watched_counts c
      where c.user_id = $1::uuid and c.period = 0), 0)`;
}

// How many cards the read holds in all (`genreParam` the genre's parameter).
function totalSql(list: ListName, q: ListQuery, genreParam: string): string {
  return keptTotal(list, q) ??
    `(select count(*) from ${fromSql(list, q)}${filters(q, genreParam)})`;
}

/** How many cards `list` read as `q` holds in all: `$1` the user, `$2` the genre if any. */
export function listTotalSql(list: ListName, q: ListQuery): string {
  return `select (${totalSql(list, q, "$2")})::int as total`;
}

function build(list: ListName, q: ListQuery, check: ReadCheck, live: string): string {
  const checkSql = check === "unchecked" ? "" : `and ${live}`;
  const genreParam = check === "session" ? "$3" : "$2";
  let columns = q.includeEntry && list === "watched"
    ? `${CARD_COLUMNS},\n    ${ENTRY_COLUMNS}`
    : CARD_COLUMNS;
  if (q.includeAvailability) columns += `,\n    ${AVAILABILITY_COLUMN}`;
  // A paged read (docs/entries.md): the cursor's columns, the rows after it, one more than asked.
  let after = "";
  let limit = "";
  if (q.page) {
    // The total in the same statement: an uncorrelated subquery, read once.
    const total = `(${totalSql(list, q, genreParam)})::int`;
    columns += `,\n    ${cursorColumns(list, q)},\n    ${total} as list_total`;
    let n = (check === "session" ? 3 : 2) + (q.genre !== undefined ? 1 : 0);
    const $ = () => `$${n++}`;
    if (q.page.cursor) {
      const key = hasSortKey(q) ? $() : undefined;
      after = afterCursor(list, q, { key, at: $(), id: $() });
    }
    limit = `\n  limit ${$()}`;
    if (q.page.offset) limit += ` offset ${$()}`;
  }
  return `select ${columns}
  from ${fromSql(list, q)} ${checkSql}${filters(q, genreParam)}${after}
  order by ${orderBy(list, q)}${limit}`;
}

const built = new Map<string, string>();

/**
 * The statement reading `list` as `q` asks: `$1` the user, `$2` the session id when `session`
 * names one, then the genre name when `q` filters by one. Without `session`, no token check.
 */
export function listSql(list: ListName, q: ListQuery, session?: SessionCheck): string {
  const check = checkOf(session);
  const live = session?.liveSql("$1", check === "session" ? "$2" : null) ?? "";
  const key = [
    list,
    check,
    live,
    q.sort,
    q.order,
    q.genre !== undefined,
    q.rated,
    q.includeEntry,
    q.includeAvailability === true,
    q.availableMine === true,
    q.page ? (q.page.cursor ? "after" : "first") : "all",
    Boolean(q.page?.offset),
  ].join("|");
  let text = built.get(key);
  if (text === undefined) built.set(key, text = build(list, q, check, live));
  return text;
}

/** The parameters of `listSql`'s statement (a paged read asks one row more than its limit). */
export function listParams(userId: string, q: ListQuery, sessionId?: string | null): unknown[] {
  const params: unknown[] = [userId];
  if (sessionId) params.push(sessionId);
  if (q.genre !== undefined) params.push(q.genre);
  const cursor = q.page?.cursor;
  if (cursor && hasSortKey(q)) params.push(cursor.key);
  if (cursor) params.push(cursor.at, cursor.catalogId);
  if (q.page) params.push(q.page.limit + 1);
  if (q.page?.offset) params.push(q.page.offset);
  return params;
}
