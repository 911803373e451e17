/**
 * How many films a user's lists hold at most (docs/entries.md): 100,000 watched and 10,000 on My
 * List. Checked under the lists' lock inside the writing transaction (run as the user), so the
 * count read is the count written; a movie already on the list never counts against it.
 */
import { Problem } from "@/lib/core/problem.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";

/** At most this many films on one user's watched list. */
export const MAX_WATCHED = 100_000;
/** At most this many films on one user's My List. */
export const MAX_MY_LIST = 10_000;

/** Which list a limit belongs to. */
type LimitedList = "watched" | "mylist";

// The watched count is the one the writers' triggers keep (docs/entries.md): one row, whatever
// the list's length.
const WATCHED_ROOM_SQL = `select ${MAX_WATCHED} - coalesce((select movies
    from public.user_watched_counts where user_id = (select auth.uid()) and period = 0), 0)
    as room`;

const MY_LIST_ROOM_SQL = `select ${MAX_MY_LIST} - coalesce((select cardinality(catalog_ids)
    from public.user_my_list where user_id = (select auth.uid())), 0) as room`;

/** How many more films the list takes (0 when full); run as the user, under the lists' lock. */
export async function listRoom(tx: Sql, list: LimitedList): Promise<number> {
  const [row] = await tx.query<{ room: number }>(
    list === "watched" ? WATCHED_ROOM_SQL : MY_LIST_ROOM_SQL,
  );
  return Math.max(0, Number(row.room));
}

/** The 400 problem of a write past a list's limit. */
function listFull(list: LimitedList): Problem {
  return list === "watched"
    ? new Problem(
      400,
      "list_full",
      `Your watched list holds at most ${MAX_WATCHED.toLocaleString("en")} films.`,
    )
    : new Problem(
      400,
      "list_full",
      `My List holds at most ${MAX_MY_LIST.toLocaleString("en")} films.`,
    );
}

const ON_WATCHED_SQL = `select exists (select 1 from public.user_watched_movies
    where user_id = (select auth.uid()) and catalog_id = $1) as present`;
const ON_MY_LIST_SQL = `select exists (select 1 from public.user_my_list
    where user_id = (select auth.uid()) and $1 = any (catalog_ids)) as present`;

/**
 * Throws 400 `list_full` when adding `catalogId` would take the list past its limit (a movie
 * already on it adds nothing, so it passes).
 */
export async function assertRoomFor(
  tx: Sql,
  list: LimitedList,
  catalogId: number,
): Promise<void> {
  if (await listRoom(tx, list) > 0) return;
  const [row] = await tx.query<{ present: boolean }>(
    list === "watched" ? ON_WATCHED_SQL : ON_MY_LIST_SQL,
    [catalogId],
  );
  if (!row.present) throw listFull(list);
}
