/** The lists service: a user's watched list and My List, read as cards and written by id. */
import type { AppDeps } from "../deps.ts";
import { describeError } from "../log.ts";
import { Problem } from "../problem.ts";
import type { Sql } from "../store/mod.ts";
import { CARD_COLUMNS, type MovieCard, toCard } from "./cards.ts";

export type { MovieCard } from "./cards.ts";
export { readWritePayload, writePayloadSchema } from "./write_payload.ts";

/** Fetches details of ids missing from the movies store, in the background (lib/catalog). */
export type Prefetch = (ids: number[]) => unknown;

/** What the list routes call. */
export interface ListsService {
  watched(userId: string): Promise<MovieCard[]>;
  addWatched(userId: string, catalogId: number): Promise<void>;
  removeWatched(userId: string, catalogId: number): Promise<void>;
  myList(userId: string): Promise<MovieCard[]>;
  addMyList(userId: string, catalogId: number): Promise<void>;
  removeMyList(userId: string, catalogId: number): Promise<void>;
  /** Where one movie stands in the user's lists (the movie page's buttons), in one query. */
  status(userId: string, catalogId: number): Promise<ListStatus>;
}

/** Whether a movie is in the user's watched list and in their My List. */
export interface ListStatus {
  watched: boolean;
  inMyList: boolean;
}

const STATUS_SQL = `select
    exists (select 1 from public.user_watched_movies
      where user_id = (select auth.uid()) and catalog_id = $1) as watched,
    exists (select 1 from public.user_my_list
      where user_id = (select auth.uid()) and $1 = any (catalog_ids)) as "inMyList"`;

// Newest first; the id breaks ties of one instant so the order is deterministic.
const WATCHED_SQL = `select ${CARD_COLUMNS}
  from public.user_watched_movies l
  left join public.movies m on m.catalog_id = l.catalog_id
  where l.user_id = (select auth.uid())
  order by l.created_at desc, l.catalog_id desc`;

const MY_LIST_SQL = `select ${CARD_COLUMNS}
  from public.user_my_list s
  cross join lateral unnest(s.catalog_ids) with ordinality as l(catalog_id, ord)
  left join public.movies m on m.catalog_id = l.catalog_id
  where s.user_id = (select auth.uid())
  order by l.ord`;

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

  return {
    watched: (userId) =>
      store.asUser(userId, async (tx) => (await tx.query(WATCHED_SQL)).map(toCard)),
    myList: (userId) =>
      store.asUser(userId, async (tx) => (await tx.query(MY_LIST_SQL)).map(toCard)),
    status: (userId, catalogId) =>
      store.asUser(userId, async (tx) => {
        const [row] = await tx.query<ListStatus>(STATUS_SQL, [catalogId]);
        return { watched: Boolean(row.watched), inMyList: Boolean(row.inMyList) };
      }),
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
