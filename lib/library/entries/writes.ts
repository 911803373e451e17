/**
 * The lists' writes (docs/entries.md): every statement that changes a user's watched list or My
 * List, for the lists service and the history import alike. Each runs as the user (row-level
 * security) inside the caller's transaction, after `lockLists`, so a user's list writes take
 * turns and "not watched", checked before an append, stays true until the append commits.
 */
import { lockForTransaction, type Sql } from "@/lib/platform/store/mod.ts";
import { namedColumns } from "./entry.ts";
import type { EntryFields } from "./entry_fields.ts";

/** Waits for the user's list lock, held until `tx` ends. */
export function lockLists(tx: Sql, userId: string): Promise<void> {
  return lockForTransaction(tx, "userEntries", userId);
}

/** A watched row to insert, or to merge into the row already stored. */
interface WatchedRow {
  catalogId: number;
  watchedOn: string | null;
  rating: number | null;
  note: string | null;
}

/**
 * Inserts the rows dated `addedAt` in one statement. A movie already watched takes the fields
 * `update` names from its row and keeps the rest; naming none, it stays as it is.
 */
export async function upsertWatched(
  tx: Sql,
  rows: WatchedRow[],
  options: { addedAt: string; update: readonly (keyof EntryFields)[] },
): Promise<void> {
  if (rows.length === 0) return;
  const named = namedColumns(Object.fromEntries(options.update.map((key) => [key, null])));
  const conflict = named.length === 0
    ? "do nothing"
    : `do update set ${named.map((n) => `${n.column} = excluded.${n.column}`).join(", ")}`;
  await tx.query(
    `insert into public.user_watched_movies
        (user_id, catalog_id, created_at, watched_on, rating, note)
      select (select auth.uid()), t.c, $2::timestamptz, t.w, t.r, t.n
        from unnest($1::integer[], $3::date[], $4::smallint[], $5::text[]) as t(c, w, r, n)
      on conflict (user_id, catalog_id) ${conflict}`,
    [
      rows.map((r) => r.catalogId),
      options.addedAt,
      rows.map((r) => r.watchedOn),
      rows.map((r) => r.rating),
      rows.map((r) => r.note),
    ],
  );
}

/** Removes a movie from the watched list (nothing when it is not there). */
export async function deleteWatched(tx: Sql, catalogId: number): Promise<void> {
  await tx.query(
    `delete from public.user_watched_movies
      where user_id = (select auth.uid()) and catalog_id = $1`,
    [catalogId],
  );
}

/** Whether the movie is in the user's watched list. */
export async function isWatched(tx: Sql, catalogId: number): Promise<boolean> {
  const [row] = await tx.query<{ watched: boolean }>(
    `select exists (select 1 from public.user_watched_movies
       where user_id = (select auth.uid()) and catalog_id = $1) as watched`,
    [catalogId],
  );
  return row.watched;
}

/** Appends a movie to My List (nothing when it is there already). */
export async function appendMyList(tx: Sql, catalogId: number): Promise<void> {
  await tx.query(`select public.append_my_list($1)`, [catalogId]);
}

/** Takes a movie off My List (nothing when it is not there). */
export async function removeFromMyList(tx: Sql, catalogId: number): Promise<void> {
  await tx.query(`select public.remove_my_list($1)`, [catalogId]);
}

/** My List's ids in saved order; empty when the user has none. */
export async function readMyList(tx: Sql): Promise<number[]> {
  const [list] = await tx.query<{ catalog_ids: number[] }>(
    `select catalog_ids from public.user_my_list where user_id = (select auth.uid())`,
  );
  return (list?.catalog_ids ?? []).map(Number);
}

/** Stores `ids` as the whole of My List, in this order. */
export async function replaceMyList(
  tx: Sql,
  ids: number[],
  options: { updatedAt: string },
): Promise<void> {
  await tx.query(
    `insert into public.user_my_list (user_id, catalog_ids, updated_at)
      values ((select auth.uid()), $1::integer[], $2::timestamptz)
      on conflict (user_id) do update set catalog_ids = excluded.catalog_ids,
        updated_at = excluded.updated_at`,
    [ids, options.updatedAt],
  );
}
