/** The lists service: a user's watched list and My List, read as cards and written by id. */
import type { PendingSession } from "../auth/mod.ts";
import { tokenLiveSql } from "../auth/sessions.ts";
import type { AppDeps } from "../deps.ts";
import { describeError } from "../log.ts";
import { Problem } from "../problem.ts";
import type { Sql } from "../store/mod.ts";
import { CARD_COLUMNS, type MovieCard, toCard } from "./cards.ts";

/** Fetches details of ids missing from the movies store, in the background (lib/catalog). */
export type Prefetch = (ids: number[]) => unknown;

/** What the list routes call. */
export interface ListsService {
  /** The watched list, newest first; with `session`, the read checks that session too. */
  watched(userId: string, options?: ReadOptions): Promise<MovieCard[]>;
  addWatched(userId: string, catalogId: number): Promise<void>;
  removeWatched(userId: string, catalogId: number): Promise<void>;
  /** My List in saved order; with `session`, the read checks that session too. */
  myList(userId: string, options?: ReadOptions): Promise<MovieCard[]>;
  addMyList(userId: string, catalogId: number): Promise<void>;
  removeMyList(userId: string, catalogId: number): Promise<void>;
  /** Where one movie stands in the user's lists (the movie page's buttons), in one query. */
  status(userId: string, catalogId: number): Promise<ListStatus>;
}

/** Options of a list read. */
export interface ReadOptions {
  /** The token's session, still to be found live: checked in the read's own statement. */
  session?: PendingSession;
}

/** Whether a movie is in the user's watched list and in their My List. */
export interface ListStatus {
  watched: boolean;
  inMyList: boolean;
}

// Reads run as one statement with the server's privileges, scoped to the verified user by
// `$1` (writes run as the user, under row-level security). The same statement can check the
// token: rows come back only while its session (`$2`) or, naming none, its user is live.
type ReadSql = { unchecked: string; user: string; session: string };

function readSql(sql: (check: string) => string): ReadSql {
  return {
    unchecked: sql(""),
    user: sql(`and ${tokenLiveSql("$1", null)}`),
    session: sql(`and ${tokenLiveSql("$1", "$2")}`),
  };
}

const STATUS_SQL = `select
    exists (select 1 from public.user_watched_movies
      where user_id = $1::uuid and catalog_id = $2) as watched,
    exists (select 1 from public.user_my_list
      where user_id = $1::uuid and $2 = any (catalog_ids)) as "inMyList"`;

// Newest first; the id breaks ties of one instant so the order is deterministic.
const WATCHED_SQL = readSql((check) =>
  `select ${CARD_COLUMNS}
  from public.user_watched_movies l
  left join public.movies m on m.catalog_id = l.catalog_id
  where l.user_id = $1::uuid ${check}
  order by l.created_at desc, l.catalog_id desc`
);

const MY_LIST_SQL = readSql((check) =>
  `select ${CARD_COLUMNS}
  from public.user_my_list s
  cross join lateral unnest(s.catalog_ids) with ordinality as l(catalog_id, ord)
  left join public.movies m on m.catalog_id = l.catalog_id
  where s.user_id = $1::uuid ${check}
  order by l.ord`
);

// Serialises a user's list writes, so "not watched" checked before an append stays true
// until the append commits (POST /api/mylist vs a concurrent POST /api/watched).
const LOCK_SQL = `select pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended($1, 6))`;

// A light row (from the popular feed) has no runtime yet, so it asks for details too.
const KNOWN_SQL = `select exists (
    select 1 from public.movies where catalog_id = $1 and has_details
  ) as known`;

/** Builds the lists service; `prefetch` is the catalog's background details fetch. */
export function createListsService(
  deps: AppDeps,
  options: { prefetch?: Prefetch } = {},
): ListsService {
  const { store } = deps;

  // Runs a write as the user and, when the movie's details are not stored yet, asks for them
  // after the commit; a failing prefetch never fails the write.
  async function write(userId: string, catalogId: number, fn: (tx: Sql) => Promise<void>) {
    const known = await store.asUser(userId, async (tx) => {
      await tx.query(LOCK_SQL, [userId]);
      await fn(tx);
      const [row] = await tx.query<{ known: boolean }>(KNOWN_SQL, [catalogId]);
      return row.known;
    });
    if (!known && options.prefetch) {
      try {
        Promise.resolve(options.prefetch([catalogId])).catch((error) =>
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

  async function read(sql: ReadSql, userId: string, session?: PendingSession) {
    const rows = !session
      ? await store.query(sql.unchecked, [userId])
      : session.sessionId === null
      ? await store.query(sql.user, [userId])
      : await store.query(sql.session, [userId, session.sessionId]);
    // Rows prove the token live; none may be an empty list, so that takes a query of its own.
    if (rows.length > 0) session?.settle(true);
    else await session?.settleAlone();
    return rows.map(toCard);
  }

  return {
    watched: (userId, readOptions = {}) => read(WATCHED_SQL, userId, readOptions.session),
    myList: (userId, readOptions = {}) => read(MY_LIST_SQL, userId, readOptions.session),
    async status(userId, catalogId) {
      const [row] = await store.query<ListStatus>(STATUS_SQL, [userId, catalogId]);
      return { watched: Boolean(row.watched), inMyList: Boolean(row.inMyList) };
    },
    addWatched: (userId, catalogId) =>
      write(userId, catalogId, async (tx) => {
        await tx.query(
          `insert into public.user_watched_movies (user_id, catalog_id, created_at)
           values ((select auth.uid()), $1, $2)
           on conflict do nothing`,
          [catalogId, new Date(deps.clock.now()).toISOString()],
        );
        await tx.query(`select public.remove_my_list($1)`, [catalogId]);
      }),
    removeWatched: (userId, catalogId) =>
      write(userId, catalogId, async (tx) => {
        await tx.query(
          `delete from public.user_watched_movies
           where user_id = (select auth.uid()) and catalog_id = $1`,
          [catalogId],
        );
      }),
    addMyList: (userId, catalogId) =>
      write(userId, catalogId, async (tx) => {
        const [row] = await tx.query<{ watched: boolean }>(
          `select exists (select 1 from public.user_watched_movies
             where user_id = (select auth.uid()) and catalog_id = $1) as watched`,
          [catalogId],
        );
        if (row.watched) {
          throw new Problem(409, "already_watched", "This movie is already in the watched list.");
        }
        await tx.query(`select public.append_my_list($1)`, [catalogId]);
      }),
    removeMyList: (userId, catalogId) =>
      write(userId, catalogId, async (tx) => {
        await tx.query(`select public.remove_my_list($1)`, [catalogId]);
      }),
  };
}
