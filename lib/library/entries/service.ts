/** The lists service: a user's watched list and My List, read as cards and written by id. */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { describeError } from "@/lib/core/log.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";
import { type Availability, toAvailability } from "@/lib/catalog/my_streaming/availability_sql.ts";
import { type MovieCard, toCard } from "@/lib/catalog/cards.ts";
import { ENTRY_COLUMNS, readEntry, toEntry, updateEntry, type WatchedEntry } from "./entry.ts";
import { type EntryFields, utcDate } from "./entry_fields.ts";
import { DEFAULT_MY_LIST_QUERY, DEFAULT_WATCHED_QUERY, type ListQuery } from "./list_query.ts";
import { cursorSort, writeListCursor } from "./list_cursor.ts";
import { assertRoomFor } from "./limits.ts";
import { type ListName, listParams, listSql, listTotalSql } from "./list_sql.ts";
import type { SessionCheck } from "@/lib/platform/session_check.ts";
import { readWatchedStats, type WatchedStats } from "./stats.ts";
import {
  appendMyList,
  deleteWatched,
  isWatched,
  lockLists,
  removeFromMyList,
  upsertWatched,
} from "./writes.ts";

/** A watched card read with `include=entry`: the card and its entry. */
type EntryCard = MovieCard & { entry: WatchedEntry };

/** A card read with `include=availability`: where it streams on the user's services. */
type AvailabilityCard = MovieCard & { availability: Availability[] };

/** A page of a list read with `limit`/`cursor` (docs/entries.md). */
export interface ListPage {
  movies: (MovieCard | EntryCard | AvailabilityCard)[];
  /** Where the next page starts; null on the last page. */
  nextCursor: string | null;
  /** Cards of the whole list as sorted and filtered. */
  total: number;
}

/**
 * Fetches details of ids missing from the movies store after `userId`'s write, in the background
 * (lib/catalog/user_prefetch.ts: bounded per user).
 */
export type Prefetch = (userId: string, ids: number[]) => unknown;

/** What the list routes call. */
export interface EntriesService {
  /**
   * The watched list, newest first unless `query` says otherwise (with `includeEntry`, each card
   * carries its entry); with `session`, the read checks that session too.
   */
  watched(
    userId: string,
    options?: ReadOptions,
  ): Promise<(MovieCard | EntryCard | AvailabilityCard)[]>;
  /**
   * A page of `list` (`options.query.page` says its size and cursor; the first page of 60
   * without one), with the cursor of the next and the list's total, in one statement.
   */
  page(list: ListName, userId: string, options: ReadOptions): Promise<ListPage>;
  /** Adds a movie; `fields` set its history (without them a repeated add changes nothing). */
  addWatched(
    userId: string,
    catalogId: number,
    options?: { fields?: EntryFields },
  ): Promise<void>;
  removeWatched(userId: string, catalogId: number): Promise<void>;
  /** The user's entry for a movie; 404 `not_watched` when it is not in their watched list. */
  entry(userId: string, catalogId: number): Promise<WatchedEntry>;
  /** Changes the named fields of an entry; 404 `not_watched` (nothing stored) when absent. */
  updateEntry(
    userId: string,
    change: { catalogId: number; fields: EntryFields },
  ): Promise<WatchedEntry>;
  /** My List in saved order unless `query` says otherwise; with `session`, checks it too. */
  myList(userId: string, options?: ReadOptions): Promise<(MovieCard | AvailabilityCard)[]>;
  addMyList(userId: string, catalogId: number): Promise<void>;
  removeMyList(userId: string, catalogId: number): Promise<void>;
  /** Where one movie stands in the user's lists (the movie page's buttons), in one query. */
  status(userId: string, catalogId: number): Promise<ListStatus>;
  /** The watched page's numbers: movies, hours, this year, average rating, top genres. */
  stats(userId: string): Promise<WatchedStats>;
}

/** Options of a list read. */
interface ReadOptions {
  /** The token's session, still to be found live: checked in the read's own statement. */
  session?: SessionCheck;
  /** Sort and filters; the list's own order without one. */
  query?: ListQuery;
}

/** Whether a movie is in the user's watched list (with its entry) and in their My List. */
export interface ListStatus {
  watched: boolean;
  inMyList: boolean;
  /** The watched entry; present only when `watched`. */
  entry?: WatchedEntry;
}

// Reads run as one statement with the server's privileges, scoped to the verified user by
// `$1` (writes run as the user, under row-level security). The same statement can check the
// token: rows come back only while its session (`$2`) or, naming none, its user is live.
// The movie page shows the entry of a watched movie, so the status carries it.
const STATUS_SQL = `select l.catalog_id is not null as watched,
    exists (select 1 from public.user_my_list
      where user_id = $1::uuid and $2 = any (catalog_ids)) as "inMyList",
    l.catalog_id as "catalogId", ${ENTRY_COLUMNS}
  from (select 1) as one
  left join public.user_watched_movies l on l.user_id = $1::uuid and l.catalog_id = $2`;

// A light row (from the popular feed) has no runtime yet, so it asks for details too.
const KNOWN_SQL = `select exists (
    select 1 from public.movies where catalog_id = $1 and has_details
  ) as known`;

function notWatched(): never {
  throw new Problem(404, "not_watched", "This movie is not in your watched list.");
}

/** Builds the lists service; `prefetch` is the catalog's background details fetch. */
export function createEntriesService(
  deps: AppDeps,
  options: { prefetch?: Prefetch } = {},
): EntriesService {
  const { store } = deps;

  // Runs a write as the user and, when the movie's details are not stored yet, asks for them
  // after the commit; a failing prefetch never fails the write.
  async function write(userId: string, catalogId: number, fn: (tx: Sql) => Promise<void>) {
    const known = await store.asUser(userId, async (tx) => {
      // POST /api/mylist and a concurrent POST /api/watched take turns (writes.ts).
      await lockLists(tx, userId);
      await fn(tx);
      const [row] = await tx.query<{ known: boolean }>(KNOWN_SQL, [catalogId]);
      return row.known;
    });
    if (!known && options.prefetch) {
      try {
        Promise.resolve(options.prefetch(userId, [catalogId])).catch((error) =>
          deps.log({
            level: "warn",
            msg: "prefetch failed",
            catalogId,
            error: describeError(error),
          })
        );
      } catch (error) {
        deps.log({ level: "warn", msg: "prefetch failed", catalogId, error: describeError(error) });
      }
    }
  }

  async function read(list: ListName, q: ListQuery, userId: string, session?: SessionCheck) {
    return toCards(list, q, await readRows(list, q, userId, session));
  }

  async function readPage(list: ListName, q: ListQuery, userId: string, session?: SessionCheck) {
    const paged = { ...q, page: q.page ?? { limit: 60 } };
    const rows = await readRows(list, paged, userId, session);
    const kept = rows.slice(0, paged.page.limit);
    const last = kept.at(-1);
    let total: number;
    if (last) total = Number(last.list_total);
    else {
      // Past the end (or an empty list) there is no row to carry the total.
      const [row] = await store.query<{ total: number }>(
        listTotalSql(list, paged),
        q.genre !== undefined ? [userId, q.genre] : [userId],
      );
      total = Number(row.total);
    }
    const nextCursor = last && rows.length > kept.length
      ? writeListCursor({
        sort: cursorSort(paged),
        key: last.cursor_key === null ? null : String(last.cursor_key),
        at: String(last.cursor_at),
        catalogId: Number(last.catalogId),
      })
      : null;
    return { movies: toCards(list, paged, kept), nextCursor, total };
  }

  async function readRows(
    list: ListName,
    q: ListQuery,
    userId: string,
    session?: SessionCheck,
  ): Promise<Record<string, unknown>[]> {
    const rows = await store.query(
      listSql(list, q, session),
      listParams(userId, q, session?.sessionId),
    );
    // Rows prove the token live; none may be an empty list, so that takes a query of its own.
    if (rows.length > 0) session?.settle(true);
    else {
      await session?.settleAlone();
      // Rows prove services chosen; none may mean there are none to filter by.
      if (q.availableMine) await assertServicesChosen(userId);
    }
    return rows;
  }

  function toCards(list: ListName, q: ListQuery, rows: Record<string, unknown>[]) {
    const entry = q.includeEntry && list === "watched";
    if (!entry && !q.includeAvailability) return rows.map(toCard);
    return rows.map((r) => ({
      ...toCard(r),
      ...(q.includeAvailability ? { availability: toAvailability(r.availability) } : {}),
      ...(entry ? { entry: toEntry(r) } : {}),
    }));
  }

  async function assertServicesChosen(userId: string) {
    const [row] = await store.query(
      `select 1 from public.user_services
        where user_id = $1::uuid and cardinality(provider_ids) > 0`,
      [userId],
    );
    if (!row) {
      throw new Problem(
        400,
        "no_services",
        "Choose your streaming services first (PUT /api/me/services).",
      );
    }
  }

  return {
    watched: (userId, { session, query = DEFAULT_WATCHED_QUERY } = {}) =>
      read("watched", query, userId, session),
    myList: (userId, { session, query = DEFAULT_MY_LIST_QUERY } = {}) =>
      read("mylist", query, userId, session),
    page: (list, userId, { session, query } = {}) =>
      readPage(
        list,
        query ?? (list === "watched" ? DEFAULT_WATCHED_QUERY : DEFAULT_MY_LIST_QUERY),
        userId,
        session,
      ),
    async entry(userId, catalogId) {
      return await readEntry(store, { userId, catalogId }) ?? notWatched();
    },
    async updateEntry(userId, change) {
      const entry = await store.asUser(userId, (tx) => updateEntry(tx, change));
      return entry ?? notWatched();
    },
    async status(userId, catalogId) {
      const [row] = await store.query(STATUS_SQL, [userId, catalogId]);
      const status: ListStatus = { watched: Boolean(row.watched), inMyList: Boolean(row.inMyList) };
      if (status.watched) status.entry = toEntry(row);
      return status;
    },
    stats: (userId) => readWatchedStats(store, userId, { now: deps.clock.now() }),
    addWatched: (userId, catalogId, { fields = {} } = {}) =>
      write(userId, catalogId, async (tx) => {
        await assertRoomFor(tx, "watched", catalogId);
        const now = deps.clock.now();
        const row = {
          catalogId,
          watchedOn: "watchedOn" in fields ? fields.watchedOn ?? null : utcDate(now),
          rating: fields.rating ?? null,
          note: fields.note ?? null,
        };
        // A repeated add changes only the fields it names.
        const update = (["rating", "watchedOn", "note"] as const).filter((key) => key in fields);
        await upsertWatched(tx, [row], { addedAt: new Date(now).toISOString(), update });
        await removeFromMyList(tx, catalogId);
      }),
    removeWatched: (userId, catalogId) =>
      write(userId, catalogId, (tx) => deleteWatched(tx, catalogId)),
    addMyList: (userId, catalogId) =>
      write(userId, catalogId, async (tx) => {
        if (await isWatched(tx, catalogId)) {
          throw new Problem(409, "already_watched", "This movie is already in the watched list.");
        }
        await assertRoomFor(tx, "mylist", catalogId);
        await appendMyList(tx, catalogId);
      }),
    removeMyList: (userId, catalogId) =>
      write(userId, catalogId, (tx) => removeFromMyList(tx, catalogId)),
  };
}
