/**
 * Item writes, each in the owner's transaction under row-level security, after taking the
 * list's row lock: concurrent writes to one list run one after the other, so positions stay
 * 1..n with no gap and no repeat. A move renumbers the run between the two places in one
 * statement (the position key is checked at the statement's end).
 */
import { Problem } from "@/lib/core/problem.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";
import { type ItemAdd, type ItemPatch, MAX_ITEMS } from "./payloads.ts";
import { ITEM_CARD_SQL, type ListCard, toListCard } from "./sql.ts";

/** The 404 of a list the caller does not have (absent, or another user's). */
export function listNotFound(): Problem {
  return new Problem(404, "list_not_found", "No such list.");
}

function notInList(): Problem {
  return new Problem(404, "not_in_list", "This movie is not in the list.");
}

/**
 * Locks the caller's list (404 when they have none by that id), then counts its items in a
 * statement of its own: a count in the locking statement would see the snapshot taken before
 * the wait, missing the items of the writer it waited for.
 */
export async function lockList(tx: Sql, listId: string): Promise<number> {
  const [row] = await tx.query(
    `select 1 from public.user_lists where id = $1::uuid for update`,
    [listId],
  );
  if (!row) throw listNotFound();
  const [count] = await tx.query<{ n: number }>(
    `select count(*)::int as n from public.user_list_items where list_id = $1::uuid`,
    [listId],
  );
  return count.n;
}

/** Marks the list changed (GET /api/lists shows the latest first). */
async function touchList(tx: Sql, listId: string, now: string): Promise<void> {
  await tx.query(`update public.user_lists set updated_at = $2 where id = $1::uuid`, [
    listId,
    now,
  ]);
}

const MOVE_SQL = `update public.user_list_items
  set position = case when catalog_id = $2 then $4::int
                      when $4::int < $3::int then position + 1
                      else position - 1 end
  where list_id = $1::uuid
    and position between least($3::int, $4::int) and greatest($3::int, $4::int)`;

async function card(tx: Sql, listId: string, catalogId: number): Promise<ListCard> {
  const [row] = await tx.query(ITEM_CARD_SQL, [listId, catalogId]);
  return toListCard(row);
}

/** Adds a movie at `position` (appended by default); 409 when it is there, 400 when full. */
export async function addItem(
  tx: Sql,
  target: { listId: string; now: string },
  item: ItemAdd,
): Promise<ListCard> {
  const n = await lockList(tx, target.listId);
  const [there] = await tx.query(
    `select 1 from public.user_list_items where list_id = $1::uuid and catalog_id = $2`,
    [target.listId, item.catalogId],
  );
  if (there) throw new Problem(409, "already_in_list", "This movie is already in the list.");
  if (n >= MAX_ITEMS) {
    throw new Problem(400, "list_full", `A list holds at most ${MAX_ITEMS} movies.`);
  }
  const position = Math.min(item.position ?? n + 1, n + 1);
  if (position <= n) {
    await tx.query(
      `update public.user_list_items set position = position + 1
        where list_id = $1::uuid and position >= $2`,
      [target.listId, position],
    );
  }
  await tx.query(
    `insert into public.user_list_items (list_id, catalog_id, position, note, added_at)
     values ($1::uuid, $2, $3, $4, $5)`,
    [target.listId, item.catalogId, position, item.note ?? null, target.now],
  );
  await touchList(tx, target.listId, target.now);
  return await card(tx, target.listId, item.catalogId);
}

/** Moves an item (past the end: last) and/or changes its note; 404 when not in the list. */
export async function updateItem(
  tx: Sql,
  target: { listId: string; catalogId: number; now: string },
  patch: ItemPatch,
): Promise<ListCard> {
  const n = await lockList(tx, target.listId);
  const [row] = await tx.query<{ position: number }>(
    `select position from public.user_list_items where list_id = $1::uuid and catalog_id = $2`,
    [target.listId, target.catalogId],
  );
  if (!row) throw notInList();
  if (patch.position !== undefined) {
    const to = Math.min(patch.position, n);
    if (to !== row.position) {
      await tx.query(MOVE_SQL, [target.listId, target.catalogId, row.position, to]);
    }
  }
  if (patch.note !== undefined) {
    await tx.query(
      `update public.user_list_items set note = $3 where list_id = $1::uuid and catalog_id = $2`,
      [target.listId, target.catalogId, patch.note],
    );
  }
  await touchList(tx, target.listId, target.now);
  return await card(tx, target.listId, target.catalogId);
}

// The items after the removed one move up by one, in the same statement as the delete.
const REMOVE_SQL = `with d as (
    delete from public.user_list_items where list_id = $1::uuid and catalog_id = $2
    returning position
  ), shifted as (
    update public.user_list_items set position = position - 1
     where list_id = $1::uuid and position > (select position from d)
  )
  select count(*)::int as removed from d`;

/** Removes a movie from the list (absent: nothing to do); the others close the gap. */
export async function removeItem(
  tx: Sql,
  target: { listId: string; catalogId: number; now: string },
): Promise<void> {
  await lockList(tx, target.listId);
  const [row] = await tx.query<{ removed: number }>(REMOVE_SQL, [
    target.listId,
    target.catalogId,
  ]);
  if (row.removed > 0) await touchList(tx, target.listId, target.now);
}
