/** Reads of the diary: a page newest first, one entry, and the queue of what to rate. */
import type { Sql } from "@/lib/platform/store/mod.ts";
import { writeCursor } from "./cursor.ts";
import type { DiaryQuery } from "./payload.ts";
import { DIARY_COLUMNS, type DiaryEntry, toDiaryEntry } from "./viewing.ts";

/** A page of the diary, and (when asked) how many entries it holds in the year or month asked. */
export interface DiaryPage {
  entries: DiaryEntry[];
  nextCursor: string | null;
  total?: number;
}

// One statement, read with the server's privileges and scoped to the verified user by $1 (as
// the list reads). Only the conditions a page needs are in its text, so the planner walks the
// diary index from the cursor (or the website's page offset) on and stops after a page. The
// website's page asks for the count too, of the same index range, so its "of N" comes from SQL;
// the API's page does not (counting 10,000 entries cost a page of 50 half its time again).
function pageSql(query: DiaryQuery, userId: string): { text: string; params: unknown[] } {
  const params: unknown[] = [userId];
  const inRange = ["v.user_id = $1::uuid"];
  const p = (value: unknown) => `$${params.push(value)}`;
  if (query.range) {
    inRange.push(`v.watched_on >= ${p(query.range[0])}::date`);
    inRange.push(`v.watched_on < ${p(query.range[1])}::date`);
  }
  const where = [...inRange];
  const c = query.cursor;
  if (c) {
    where.push(
      `(v.watched_on, v.created_at, v.id) < ` +
        `(${p(c.watchedOn)}::date, ${p(c.loggedAt)}::timestamptz, ${p(c.id)}::uuid)`,
    );
  }
  const order = "v.watched_on desc, v.created_at desc, v.id desc";
  const skip = query.offset ? ` offset ${p(query.offset)}` : "";
  // An empty page (or one past the end) is one row without an entry, carrying the count.
  const total = query.count
    ? `select count(*)::int as total from public.user_viewings v where ${inRange.join(" and ")}`
    : "select null::int as total";
  const text = `select t.total, ${DIARY_COLUMNS}
  from (${total}) t
  left join lateral (
    select v.* from public.user_viewings v
     where ${where.join(" and ")}
     order by ${order}
     limit ${p(query.limit + 1)}${skip}
  ) v on true
  left join public.movies m on m.catalog_id = v.catalog_id
  order by ${order}`;
  return { text, params };
}

/** A page of `userId`'s diary, newest first; one row more than asked tells if more follow. */
export async function readDiaryPage(
  sql: Sql,
  userId: string,
  query: DiaryQuery,
): Promise<DiaryPage> {
  const { limit } = query;
  const { text, params } = pageSql(query, userId);
  const all = await sql.query(text, params);
  const rows = all.filter((r) => r.id !== null);
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page.at(-1);
  return {
    entries: page.map(toDiaryEntry),
    nextCursor: more && last
      ? writeCursor({
        watchedOn: String(last.watchedOn),
        loggedAt: String(last.cursorAt),
        id: String(last.id),
      })
      : null,
    ...(query.count ? { total: Number(all[0]?.total ?? 0) } : {}),
  };
}

const ONE_SQL = `select ${DIARY_COLUMNS}
  from public.user_viewings v
  left join public.movies m on m.catalog_id = v.catalog_id
  where v.user_id = $1::uuid and v.id = $2::uuid`;

/** One of `userId`'s entries, or undefined (another user's id is as absent as an unknown one). */
export async function readDiaryEntry(
  sql: Sql,
  key: { userId: string; id: string },
): Promise<DiaryEntry | undefined> {
  const [row] = await sql.query(ONE_SQL, [key.userId, key.id]);
  return row ? toDiaryEntry(row) : undefined;
}

/** A movie of the queue of what to rate. */
export interface UnratedMovie {
  catalogId: number;
  title: string;
  year: number;
  posterPath: string;
  watchedOn: string | null;
  /** The latest viewing, which a rating from the queue goes to; null when none is logged. */
  viewingId: string | null;
}

/** The largest queue GET /api/diary/unrated gives. */
export const MAX_UNRATED = 50;

const UNRATED_SQL = `select l.catalog_id as "catalogId", coalesce(m.title, '') as title,
    coalesce(m.year, 0) as year, coalesce(m.poster_path, '') as "posterPath",
    l.watched_on::text as "watchedOn",
    (select v.id::text from public.user_viewings v
      where v.user_id = l.user_id and v.catalog_id = l.catalog_id
      order by v.watched_on desc, v.created_at desc, v.id desc limit 1) as "viewingId"
  from public.user_watched_movies l
  left join public.movies m on m.catalog_id = l.catalog_id
  where l.user_id = $1::uuid and l.rating is null
  order by l.watched_on desc nulls last, l.created_at desc, l.catalog_id desc
  limit $2`;

/** The latest watched movies without a rating, newest watch first. */
export async function readUnrated(
  sql: Sql,
  userId: string,
  limit: number,
): Promise<UnratedMovie[]> {
  const rows = await sql.query(UNRATED_SQL, [userId, limit]);
  return rows.map((r) => ({
    catalogId: Number(r.catalogId),
    title: String(r.title),
    year: Number(r.year),
    posterPath: String(r.posterPath),
    watchedOn: r.watchedOn === null ? null : String(r.watchedOn),
    viewingId: r.viewingId === null ? null : String(r.viewingId),
  }));
}
