/**
 * Logging a viewing, the one way a viewing is written (the diary route, history imports and
 * media-server webhooks all come here): the movie becomes watched if it was not and leaves My
 * List, the viewing is stored once per movie, date and source, and the rewatch marks and the
 * watched row's summary follow (docs/diary.md).
 */
import { assertRoomFor } from "../entries/limits.ts";
import { lockLists, removeFromMyList, upsertWatched } from "../entries/writes.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";
import { fitViewings, tooManyViewings } from "./limits.ts";
import { syncMovie } from "./sync.ts";
import type { ViewingSource } from "./viewing.ts";

/** A viewing to log. */
export interface NewViewing {
  catalogId: number;
  /** `YYYY-MM-DD`, already checked (a real date from 1874-01-01 to tomorrow). */
  watchedOn: string;
  rating?: number | null;
  note?: string | null;
  source: ViewingSource;
  /** The source's own rewatch mark (Letterboxd's Rewatch); the diary works out the rest. */
  rewatch?: boolean;
}

/** What a log did: the viewing's id, and whether it was new. */
interface Logged {
  id: string;
  created: boolean;
}

// A second log of the same movie, date and source is the same viewing: what the user types
// again replaces what was there; an import or webhook only fills what is missing, so a
// re-import never undoes the user's own edits.
const VIEWING_SQL = `insert into public.user_viewings as t
    (user_id, catalog_id, watched_on, rating, note, source, rewatch, created_at)
  values ((select auth.uid()), $1, $2, $3, $4, $5, $6, $7)
  on conflict (user_id, catalog_id, watched_on, source) do update set
    rating = case when excluded.source = 'manual' then coalesce(excluded.rating, t.rating)
                  else coalesce(t.rating, excluded.rating) end,
    note = case when excluded.source = 'manual' then coalesce(excluded.note, t.note)
                else coalesce(t.note, excluded.note) end,
    rewatch = t.rewatch or excluded.rewatch
  returning t.id::text as id, (t.xmax::text = '0') as created`;

/**
 * Logs `viewing` inside a transaction running as its user (`store.asUser`); `loggedAt` (ISO
 * 8601, from the clock) orders viewings of one date and dates a newly watched row. The movie
 * leaves My List unless `removeFromMyList` is false (a webhook user's setting).
 */
export async function logViewing(
  tx: Sql,
  viewing: NewViewing,
  options: { userId: string; loggedAt: string; removeFromMyList?: boolean },
): Promise<Logged> {
  const { catalogId, watchedOn } = viewing;
  // The lists' own writes (lib/library/entries/writes.ts): a movie already watched keeps its row.
  await lockLists(tx, options.userId);
  // A viewing makes the movie watched, so a full watched list refuses a new one (docs/entries.md).
  await assertRoomFor(tx, "watched", catalogId);
  // A new viewing past a film's or the diary's cap is refused; a repeat is the same viewing.
  const { refused } = await fitViewings(tx, [viewing]);
  if (refused.length > 0) throw tooManyViewings(refused[0]);
  const row = { catalogId, watchedOn, rating: null, note: null };
  await upsertWatched(tx, [row], { addedAt: options.loggedAt, update: [] });
  if (options.removeFromMyList ?? true) await removeFromMyList(tx, catalogId);
  const [logged] = await tx.query<Logged>(VIEWING_SQL, [
    catalogId,
    watchedOn,
    viewing.rating ?? null,
    viewing.note ?? null,
    viewing.source,
    viewing.rewatch ?? false,
    options.loggedAt,
  ]);
  await syncMovie(tx, catalogId);
  return { id: logged.id, created: Boolean(logged.created) };
}
