/**
 * Viewings a webhook logged under the server's TMDB id while TMDB could not confirm it
 * (docs/connections.md): their movie is not in the store, and their events read `logged`
 * `unconfirmed`. Each later event of the owner settles one such id through the catalog. Found:
 * its details are stored (the card fills in) and the events are read without the mark
 * (events.ts), as they are once anything else stored the movie. TMDB's 404: what the
 * webhook made of the id goes (its viewings, and the watched row it made when no other viewing
 * is left) and the events read `unmatched` `not_found`, as they would have had TMDB answered at
 * the time. TMDB still down or busy: nothing changes, and a later event tries again.
 */
import type { MovieSource } from "@/lib/catalog/types.ts";
import { Problem } from "@/lib/core/problem.ts";
import { syncMovie } from "@/lib/library/diary/sync.ts";
import { lockLists } from "@/lib/library/entries/writes.ts";
import type { Sql, Store } from "@/lib/platform/store/mod.ts";

/** The reason of a viewing logged under an id TMDB has not confirmed yet. */
export const UNCONFIRMED = "unconfirmed";

// One of the user's logged ids whose movie the store lacks, among the last 50 events; picked at
// random, so an id whose fetch keeps failing holds up no other.
const PENDING_SQL = `select e.catalog_id as "catalogId" from public.webhook_events e
  where e.user_id = (select auth.uid()) and e.result in ('logged', 'rated')
    and e.catalog_id is not null
    and not exists (select 1 from public.movies m where m.catalog_id = e.catalog_id)
  order by random() limit 1`;

// The webhook's viewings of the id; the watched row goes with them when no viewing is left and
// the row is no older than the first of them (a webhook made it, not the person).
const DROP_VIEWINGS_SQL = `delete from public.user_viewings
  where user_id = (select auth.uid()) and catalog_id = $1 and source = 'webhook'
  returning created_at`;

const DROP_WATCHED_SQL = `delete from public.user_watched_movies w
  where w.user_id = (select auth.uid()) and w.catalog_id = $1 and w.created_at >= $2::timestamptz
    and not exists (select 1 from public.user_viewings v
                     where v.user_id = (select auth.uid()) and v.catalog_id = $1)`;

const GONE_EVENTS_SQL = `update public.webhook_events
  set result = 'unmatched', reason = 'not_found', catalog_id = null
  where user_id = (select auth.uid()) and catalog_id = $1 and result in ('logged', 'rated')`;

// Removes what the webhook made of an id TMDB does not know (run as the user).
async function dropUnknown(tx: Sql, options: { userId: string; catalogId: number }) {
  const { userId, catalogId } = options;
  await lockLists(tx, userId);
  const dropped = await tx.query<{ created_at: string | Date }>(DROP_VIEWINGS_SQL, [catalogId]);
  if (dropped.length > 0) {
    const first = Math.min(...dropped.map((r) => new Date(r.created_at).getTime()));
    await tx.query(DROP_WATCHED_SQL, [catalogId, new Date(first).toISOString()]);
    await syncMovie(tx, catalogId);
  }
  await tx.query(GONE_EVENTS_SQL, [catalogId]);
}

/** Settles one of the user's unconfirmed ids, if any (see above). */
export async function settleUnconfirmed(
  deps: { store: Store; catalog: MovieSource },
  userId: string,
): Promise<void> {
  const { store, catalog } = deps;
  const [row] = await store.asUser(userId, (tx) => tx.query<{ catalogId: number }>(PENDING_SQL));
  if (!row) return;
  const catalogId = Number(row.catalogId);
  try {
    // Found, the details are stored: the card fills in, and the events read the mark off.
    await catalog.movie(catalogId);
  } catch (error) {
    if (error instanceof Problem && error.status === 404) {
      await store.asUser(userId, (tx) => dropUnknown(tx, { userId, catalogId }));
    }
  }
}
