/**
 * The delivery queue's statements (docs/alerts.md, "Delivery"): claiming due rows under a lease
 * with FOR UPDATE SKIP LOCKED, so instances never take the same row, at most one row of a channel
 * at a time (a slow channel holds one slot, never the others' turn); then each row is done
 * (deleted) or put back with a later due time.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";
import type { SealedChannelRow } from "../channels/channel_store.ts";
import type { NotificationFacts } from "../channels/message.ts";

/** A claimed delivery: its attempt number (from 1), its channel's row and the notification. */
export interface ClaimedDelivery {
  id: string;
  attempt: number;
  channel: SealedChannelRow;
  facts: NotificationFacts;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

const DUE =
  `(d.due_at is null or d.due_at <= $1) and (d.lease_until is null or d.lease_until <= $1)`;

// The channels of the oldest due rows (the busy ones skipped, a sample of 200 rows through the
// due index, not the whole queue), oldest first; each gives its oldest due row.
const CLAIM_SQL = `with busy as (
    select channel_id from public.alert_deliveries where lease_until > $1
  ), sample as (
    select d.channel_id, coalesce(d.due_at, d.created_at) as due
      from public.alert_deliveries d
     where ${DUE} and d.channel_id <> all ($3::uuid[])
       and d.channel_id not in (select channel_id from busy)
     order by d.due_at nulls first, d.created_at
     limit 200
  ), ready as (
    select channel_id, min(due) as first_due from sample
     group by channel_id order by first_due limit $2 * 2
  ), pick as (
    select one.id from ready r
     cross join lateral (
       select d.id from public.alert_deliveries d
        where d.channel_id = r.channel_id and ${DUE}
        order by d.due_at nulls first, d.created_at, d.id
        limit 1 for update skip locked) one
     limit $2
  ), claimed as (
    update public.alert_deliveries d set lease_until = $4, attempts = d.attempts + 1
      from pick where d.id = pick.id
    returning d.id, d.channel_id, d.notification_id, d.attempts
  )
  select cl.id, cl.attempts as attempt,
      jsonb_build_object('id', c.id, 'userId', c.user_id, 'type', c.type, 'name', c.name,
        'enabled', c.enabled, 'sealedConfig', c.sealed_config, 'email', null) as channel,
      jsonb_build_object('id', n.id, 'kind', n.kind,
        'createdAt', to_char(n.created_at at time zone 'UTC', ${ISO}),
        'catalogId', n.catalog_id, 'title', m.title, 'year', m.year, 'posterPath',
        nullif(m.poster_path, ''), 'providerId', n.provider_id, 'providerName',
        nullif(n.provider_name, ''), 'region', n.region, 'releaseType', n.release_type,
        'releaseDate', n.release_date::text, 'channelName', n.channel_name) as facts
    from claimed cl
    join public.alert_channels c on c.id = cl.channel_id
    join public.user_notifications n on n.id = cl.notification_id
    left join public.movies m on m.catalog_id = n.catalog_id`;

const json = (value: unknown) => typeof value === "string" ? JSON.parse(value) : value;

/**
 * Claims up to `limit` due deliveries until `leaseUntil`, none of a channel in `busy` (this
 * instance's) or leased anywhere; one statement.
 */
export async function claimDeliveries(
  sql: Sql,
  options: { now: number; limit: number; busy: string[]; leaseUntil: number },
): Promise<ClaimedDelivery[]> {
  if (options.limit <= 0) return [];
  const rows = await sql.query<{ id: string; attempt: number; channel: unknown; facts: unknown }>(
    CLAIM_SQL,
    [
      new Date(options.now).toISOString(),
      options.limit,
      options.busy,
      new Date(options.leaseUntil).toISOString(),
    ],
  );
  return rows.map((r) => ({
    id: String(r.id),
    attempt: Number(r.attempt),
    channel: json(r.channel) as SealedChannelRow,
    facts: json(r.facts) as NotificationFacts,
  }));
}

/** Removes a delivery that is done (delivered, given up, or its channel switched off). */
export async function finishDelivery(sql: Sql, id: string): Promise<void> {
  await sql.query(`delete from public.alert_deliveries where id = $1::uuid`, [id]);
}

/** Puts a failed delivery back, due again at `dueAt`. */
export async function retryDelivery(
  sql: Sql,
  id: string,
  options: { dueAt: number; error: string },
): Promise<void> {
  await sql.query(
    `update public.alert_deliveries set due_at = $2, lease_until = null, last_error = $3
      where id = $1::uuid`,
    [id, new Date(options.dueAt).toISOString(), options.error.slice(0, 500)],
  );
}
