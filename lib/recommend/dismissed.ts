/**
 * The movies a user dismissed ("not interested", docs/recommend.md), in
 * `user_dismissed_movies` under row-level security: at most 5,000 per user, listed newest
 * first. Dismissing also takes the id out of the stored set at once, in the same transaction.
 */
import { Problem } from "../core/problem.ts";
import { lockForTransaction, type Sql } from "../platform/store/mod.ts";

/** Most dismissed movies a user may have. */
export const MAX_DISMISSED = 5_000;

const INSERT_SQL = `insert into public.user_dismissed_movies (user_id, catalog_id, created_at)
  select (select auth.uid()), $1, $2::timestamptz
   where (select count(*) from public.user_dismissed_movies
           where user_id = (select auth.uid())) < ${MAX_DISMISSED}
      or exists (select 1 from public.user_dismissed_movies
                  where user_id = (select auth.uid()) and catalog_id = $1)
  on conflict (user_id, catalog_id) do nothing
  returning 1 as inserted`;

const KNOWN_SQL = `select exists (select 1 from public.user_dismissed_movies
  where user_id = (select auth.uid()) and catalog_id = $1) as known`;

// The stored set loses the id and its reason; the rest of the row (hash, expiry) stays.
const LEAVE_SET_SQL = `update public.recommendations
   set catalog_ids = pg_catalog.array_remove(catalog_ids, $1),
       reasons = reasons - $1::text
 where user_id = (select auth.uid()) and $1 = any (catalog_ids)`;

/** Dismisses `catalogId` as the user of `tx`; a repeat changes nothing; past 5,000 it is a 400. */
export async function dismiss(
  tx: Sql,
  userId: string,
  options: { catalogId: number; now: number },
): Promise<void> {
  // One user's dismissals take turns, so two at once cannot both pass the count at 4,999.
  await lockForTransaction(tx, "userDismissals", userId);
  const inserted = await tx.query(INSERT_SQL, [
    options.catalogId,
    new Date(options.now).toISOString(),
  ]);
  if (inserted.length === 0) {
    const [row] = await tx.query<{ known: boolean }>(KNOWN_SQL, [options.catalogId]);
    if (!row.known) {
      throw new Problem(
        400,
        "too_many_dismissed",
        `You can dismiss at most ${MAX_DISMISSED} movies; undo some dismissals first.`,
      );
    }
  }
  await tx.query(LEAVE_SET_SQL, [options.catalogId]);
}

/** Undoes a dismissal as the user of `tx`; absent is not an error. */
export async function undismiss(tx: Sql, catalogId: number): Promise<void> {
  await tx.query(
    `delete from public.user_dismissed_movies
      where user_id = (select auth.uid()) and catalog_id = $1`,
    [catalogId],
  );
}

/** The user's dismissed ids, newest first (one query). */
export async function dismissedIds(tx: Sql, userId: string): Promise<number[]> {
  const rows = await tx.query<{ catalog_id: number }>(
    `select catalog_id from public.user_dismissed_movies where user_id = $1
      order by created_at desc, catalog_id desc`,
    [userId],
  );
  return rows.map((r) => Number(r.catalog_id));
}
