/**
 * The received events a person sees on /account/connections (docs/connections.md): what came,
 * from which server, and what was done with it; never the payload. At most 50 per user.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";
import type { MediaSource } from "./media_event.ts";

/** How many events a user keeps. */
const KEPT_EVENTS = 50;

/** What a receiver did with an event. */
export type EventResult = "logged" | "rated" | "ignored" | "unmatched" | "invalid";

/** One received event as GET /api/me/connections/events lists it. */
export interface ReceivedEvent {
  at: string;
  source: MediaSource;
  event: string;
  result: EventResult;
  reason: string | null;
  title: string | null;
  year: number | null;
  catalogId: number | null;
}

/** Records `event` for the user of `tx` (running as that user) and drops those past the 50th. */
export async function recordEvent(tx: Sql, event: ReceivedEvent): Promise<void> {
  await tx.query(
    `insert into public.webhook_events
       (id, user_id, received_at, source, event, result, reason, title, year, catalog_id)
     values ($1, (select auth.uid()), $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      crypto.randomUUID(),
      event.at,
      event.source,
      event.event.slice(0, 100),
      event.result,
      event.reason,
      event.title?.slice(0, 300) ?? null,
      event.year,
      event.catalogId,
    ],
  );
  await tx.query(
    `delete from public.webhook_events
      where user_id = (select auth.uid())
        and id not in (select id from public.webhook_events where user_id = (select auth.uid())
                        order by seq desc limit ${KEPT_EVENTS})`,
  );
}

/**
 * The user's events, newest first (run as the user). An `unconfirmed` mark (unconfirmed.ts) is
 * read off once the store has the movie, whoever fetched it (a later event, the details job).
 */
export async function readEvents(tx: Sql): Promise<ReceivedEvent[]> {
  const rows = await tx.query<Record<string, unknown>>(
    `select e.received_at as at, e.source, e.event, e.result,
            case when e.reason = 'unconfirmed' and exists
                   (select 1 from public.movies m where m.catalog_id = e.catalog_id)
                 then null else e.reason end as reason,
            e.title, e.year, e.catalog_id as "catalogId"
       from public.webhook_events e where e.user_id = (select auth.uid())
      order by e.seq desc limit ${KEPT_EVENTS}`,
  );
  return rows.map((r) => ({
    at: new Date(r.at as string).toISOString(),
    source: r.source as MediaSource,
    event: String(r.event),
    result: r.result as EventResult,
    reason: r.reason === null ? null : String(r.reason),
    title: r.title === null ? null : String(r.title),
    year: r.year === null ? null : Number(r.year),
    catalogId: r.catalogId === null ? null : Number(r.catalogId),
  }));
}
