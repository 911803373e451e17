/**
 * Trakt's sync/history writes (docs/trakt.md, "Writes and scrobbles"), run as the user under the
 * lists' lock. An add logs one diary viewing per movie and date (source `import`, as a history
 * file's); a movie already having a viewing that day, from any source, is that viewing, so a
 * client that syncs back what it read (or scrobbled) adds nothing twice. The movie becomes
 * watched and leaves My List. A remove takes away viewings; a film left with none, that had one,
 * leaves the watched list (one watched without a diary entry stays).
 */
import { Problem } from "@/lib/core/problem.ts";
import { logViewings, type NewViewing, syncMovies } from "@/lib/library/diary/mod.ts";
import { listRoom } from "@/lib/library/entries/limits.ts";
import { lockLists, readMyList, replaceMyList } from "@/lib/library/entries/writes.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";

/** One viewing to add: the resolved movie and its UTC date. */
interface HistoryAdd {
  catalogId: number;
  watchedOn: string;
}

const SAME_DAY_SQL = `select v.catalog_id, v.watched_on::text as watched_on
    from public.user_viewings v
    join unnest($1::integer[], $2::date[]) as t(c, w) on v.catalog_id = t.c and v.watched_on = t.w
   where v.user_id = (select auth.uid())`;

const NOT_WATCHED_SQL = `select count(distinct t.c)::int as n
    from unnest($1::integer[]) as t(c)
   where not exists (select 1 from public.user_watched_movies w
                      where w.user_id = (select auth.uid()) and w.catalog_id = t.c)`;

/** Trakt's 420: a write past a list's limit. */
export function overListLimit(detail: string): Problem {
  return new Problem(420, "list_limit", detail);
}

/** Logs the viewings (each movie and date once); how many were new. */
export async function addHistory(
  tx: Sql,
  adds: HistoryAdd[],
  options: { userId: string; loggedAt: string },
): Promise<number> {
  await lockLists(tx, options.userId);
  const key = (a: { catalogId: number; watchedOn: string }) => `${a.catalogId}|${a.watchedOn}`;
  const once = [...new Map(adds.map((a) => [key(a), a])).values()];
  if (once.length === 0) return 0;
  const present = await tx.query<{ catalog_id: number; watched_on: string }>(SAME_DAY_SQL, [
    once.map((a) => a.catalogId),
    once.map((a) => a.watchedOn),
  ]);
  const seen = new Set(present.map((r) => `${r.catalog_id}|${r.watched_on}`));
  const fresh = once.filter((a) => !seen.has(key(a)));
  if (fresh.length === 0) return 0;
  const films = [...new Set(fresh.map((a) => a.catalogId))];
  const [{ n: newFilms }] = await tx.query<{ n: number }>(NOT_WATCHED_SQL, [films]);
  if (newFilms > await listRoom(tx, "watched")) {
    throw overListLimit("The watched list has no room for these films.");
  }
  const viewings: NewViewing[] = fresh.map((a) => ({ ...a, source: "import" }));
  const { created } = await logViewings(tx, viewings, { loggedAt: options.loggedAt });
  await syncMovies(tx, films);
  const myList = await readMyList(tx);
  const left = myList.filter((id) => !films.includes(id));
  if (left.length !== myList.length) {
    await replaceMyList(tx, left, { updatedAt: options.loggedAt });
  }
  return created;
}

const DELETE_BY_MOVIE_SQL = `delete from public.user_viewings
  where user_id = (select auth.uid()) and catalog_id = any($1::integer[])
  returning catalog_id`;

const DELETE_BY_ID_SQL = `delete from public.user_viewings
  where user_id = (select auth.uid()) and trakt_id = any($1::bigint[])
  returning catalog_id`;

// A film whose viewings were all taken away leaves the watched list (it was watched through
// its diary entries); one with viewings left keeps its row as their summary.
const DROP_EMPTY_SQL = `delete from public.user_watched_movies w
  where w.user_id = (select auth.uid()) and w.catalog_id = any($1::integer[])
    and not exists (select 1 from public.user_viewings v
                     where v.user_id = w.user_id and v.catalog_id = w.catalog_id)`;

/**
 * Removes every viewing of `catalogIds` and the viewings named by `historyIds` (the history
 * items' ids, each viewing's `trakt_id`); how many viewings went.
 */
export async function removeHistory(
  tx: Sql,
  remove: { catalogIds: number[]; historyIds: number[] },
  options: { userId: string },
): Promise<number> {
  await lockLists(tx, options.userId);
  const gone = [
    ...(remove.catalogIds.length
      ? await tx.query<{ catalog_id: number }>(DELETE_BY_MOVIE_SQL, [remove.catalogIds])
      : []),
    ...(remove.historyIds.length
      ? await tx.query<{ catalog_id: number }>(DELETE_BY_ID_SQL, [remove.historyIds])
      : []),
  ];
  const films = [...new Set(gone.map((r) => Number(r.catalog_id)))];
  if (films.length > 0) {
    await tx.query(DROP_EMPTY_SQL, [films]);
    await syncMovies(tx, films);
  }
  return gone.length;
}
