/**
 * What a delivery's outcome does to its channel (docs/alerts.md, "Delivery"): a success stamps
 * `last_delivery_at` and starts the count of failures in a row again; a failure (a delivery whose
 * attempts ran out, or a test) stores the error and counts, and the 10th in a row switches the
 * channel off and leaves the user a `channel_disabled` notice naming it, in the same statement.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";

/** Failed deliveries in a row that switch a channel off. */
const FAILURES_TO_DISABLE = 10;

/** Records a delivery that arrived, removing its queue row (`deliveryId`) in the same statement. */
export async function recordDelivered(
  sql: Sql,
  channelId: string,
  options: { now: number; deliveryId?: string },
): Promise<void> {
  await sql.query(
    `with done as (delete from public.alert_deliveries where id = $3::uuid)
     update public.alert_channels
        set last_delivery_at = $2, last_error = null, consecutive_failures = 0
      where id = $1::uuid`,
    [channelId, new Date(options.now).toISOString(), options.deliveryId ?? null],
  );
}

// The email channel is never switched off here: its switch is the user's e-mail alerts.
const FAILED_SQL = `with before as (
    select id, enabled from public.alert_channels where id = $1::uuid for update
  ), after as (
    update public.alert_channels c
       set consecutive_failures = c.consecutive_failures + 1, last_error = $2,
           enabled = c.enabled and (c.type = 'email' or c.consecutive_failures + 1 < $3)
      from before where c.id = before.id
    returning c.user_id, c.name, c.enabled, before.enabled as was_enabled
  ), notice as (
    insert into public.user_notifications (user_id, kind, channel_name, created_at)
      select user_id, 'channel_disabled', name, $4 from after where was_enabled and not enabled
    returning id
  )
  select (select count(*)::integer from notice) as disabled`;

/** Records a failed delivery; true when it was the one that switched the channel off. */
export async function recordFailed(
  sql: Sql,
  channelId: string,
  options: { error: string; now: number },
): Promise<boolean> {
  const [row] = await sql.query<{ disabled: number }>(FAILED_SQL, [
    channelId,
    options.error.slice(0, 500),
    FAILURES_TO_DISABLE,
    new Date(options.now).toISOString(),
  ]);
  return Number(row?.disabled ?? 0) > 0;
}

/** Drops a channel whose target is gone for good (a push subscription the service forgot). */
export async function removeGoneChannel(sql: Sql, channelId: string): Promise<void> {
  await sql.query(`delete from public.alert_channels where id = $1::uuid`, [channelId]);
}
