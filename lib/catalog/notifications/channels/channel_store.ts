/**
 * The `alert_channels` rows of a user (docs/alerts.md): read with the server's privileges and
 * the user's id, written as the user (row-level security). The target and its secrets are
 * sealed; the email channel's switch is `user_services.email_alerts`.
 */
import type { Sql, Store } from "@/lib/platform/store/mod.ts";
import { type SealKeySource, unseal } from "@/lib/platform/kv/seal.ts";
import type { StoredChannel } from "./types.ts";

/** The most channels a user may have. */
const MAX_CHANNELS = 10;

/** One channel as the API shows it. */
export interface ChannelView {
  id: string;
  type: string;
  name: string;
  enabled: boolean;
  /** Scheme and host only (the email channel: the address with its local part hidden). */
  target: string;
  lastDeliveryAt: string | null;
  lastError: string | null;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

const VIEW_COLUMNS = `c.id, c.type, c.name,
    case when c.type = 'email' then coalesce(us.email_alerts, false) else c.enabled end as enabled,
    case when c.type = 'email' then coalesce(left(u.email, 1) || '…@' || split_part(u.email, '@', 2), '')
      else c.target_masked end as target,
    to_char(c.last_delivery_at at time zone 'UTC', ${ISO}) as "lastDeliveryAt",
    c.last_error as "lastError"`;

const VIEW_JOINS = `left join public.user_services us on us.user_id = c.user_id
  left join auth.users u on u.id = c.user_id`;

function toView(row: Record<string, unknown>): ChannelView {
  return {
    id: String(row.id),
    type: String(row.type),
    name: String(row.name),
    enabled: Boolean(row.enabled),
    target: String(row.target),
    lastDeliveryAt: row.lastDeliveryAt === null ? null : String(row.lastDeliveryAt),
    lastError: row.lastError === null ? null : String(row.lastError),
  };
}

/** The user's channels, oldest first, in one statement. */
export async function listChannels(sql: Sql, userId: string): Promise<ChannelView[]> {
  const rows = await sql.query(
    `select ${VIEW_COLUMNS} from public.alert_channels c ${VIEW_JOINS}
      where c.user_id = $1::uuid order by c.created_at, c.id`,
    [userId],
  );
  return rows.map(toView);
}

/** One channel of the user's as the API shows it, or undefined. */
export async function readChannelView(
  sql: Sql,
  userId: string,
  id: string,
): Promise<ChannelView | undefined> {
  const [row] = await sql.query(
    `select ${VIEW_COLUMNS} from public.alert_channels c ${VIEW_JOINS}
      where c.user_id = $1::uuid and c.id = $2::uuid`,
    [userId, id],
  );
  return row ? toView(row) : undefined;
}

/** The columns a channel is opened from (the delivery queue selects the same, prefixed). */
export interface SealedChannelRow {
  id: string;
  userId: string;
  type: string;
  name: string;
  enabled: boolean;
  sealedConfig: string | null;
  email: string | null;
}

/** A row's channel with its target and secrets opened; undefined when they no longer open. */
export async function openChannel(
  keys: SealKeySource,
  row: SealedChannelRow,
): Promise<StoredChannel | undefined> {
  const base = { id: row.id, userId: row.userId, name: row.name, enabled: row.enabled };
  if (row.type === "email") return { ...base, type: "email", address: row.email };
  if (!row.sealedConfig) return undefined;
  const plain = await unseal(keys, row.sealedConfig);
  if (plain === undefined) return undefined;
  const config = JSON.parse(plain);
  switch (row.type) {
    case "webpush":
      return { ...base, type: "webpush", subscription: config.subscription };
    case "ntfy":
      return { ...base, type: "ntfy", url: config.url, token: config.token };
    case "discord":
    case "apprise":
      return { ...base, type: row.type, url: config.url };
    case "webhook":
      return { ...base, type: "webhook", url: config.url, secret: config.secret };
  }
  return undefined;
}

/**
 * A channel of the user's, opened; undefined when there is none, `unreadable` when its sealed
 * settings no longer open (SECRETS_KEY changed).
 */
export async function loadChannel(
  store: Store,
  keys: SealKeySource,
  ref: { userId: string; id: string },
): Promise<StoredChannel | "unreadable" | undefined> {
  const [row] = await store.query<SealedChannelRow>(
    `select c.id, c.user_id as "userId", c.type, c.name,
        case when c.type = 'email' then coalesce(us.email_alerts, false) else c.enabled end
          as enabled,
        c.sealed_config as "sealedConfig", u.email
       from public.alert_channels c ${VIEW_JOINS}
      where c.user_id = $1::uuid and c.id = $2::uuid`,
    [ref.userId, ref.id],
  );
  if (!row) return undefined;
  return await openChannel(keys, row) ?? "unreadable";
}

/** A channel to save: its type and name, what the API shows of its target, and the sealed rest. */
export interface ChannelRecord {
  type: string;
  name: string;
  targetMasked: string;
  /** SHA-256 (hex) of the target; null for email. */
  targetDigest: string | null;
  sealedConfig: string | null;
}

/** Why a channel was not saved. */
type SaveRefusal = "too_many";

// Serialises one user's channel writes so the count check and the insert are one step.
const LOCK_SQL = `select pg_advisory_xact_lock(hashtextextended('alert_channels:' || $1, 0))`;

/**
 * Saves `record` as the user's: the same type and target (or the one email channel) already
 * there is replaced in place, else a new channel is added unless the user has 10. Returns the id.
 */
export async function saveChannel(
  store: Store,
  userId: string,
  record: ChannelRecord,
): Promise<{ id: string } | SaveRefusal> {
  // created_at is the database's: the listing's order is the order channels were added.
  return await store.asUser(userId, async (tx) => {
    await tx.query(LOCK_SQL, [userId]);
    const [same] = await tx.query<{ id: string }>(
      `select id from public.alert_channels
        where user_id = $1::uuid and type = $2
          and (type = 'email' or target_digest = $3) limit 1`,
      [userId, record.type, record.targetDigest],
    );
    if (same) {
      // Re-adding a target (a browser subscribing again) renews it and switches it back on.
      await tx.query(
        `update public.alert_channels set name = $2, target_masked = $3, sealed_config = $4,
            enabled = true, consecutive_failures = 0, last_error = null
          where id = $1::uuid`,
        [same.id, record.name, record.targetMasked, record.sealedConfig],
      );
      return { id: same.id };
    }
    const [{ count }] = await tx.query<{ count: number }>(
      `select count(*)::integer as count from public.alert_channels where user_id = $1::uuid`,
      [userId],
    );
    if (count >= MAX_CHANNELS) return "too_many";
    const [row] = await tx.query<{ id: string }>(
      `insert into public.alert_channels
          (user_id, type, name, target_masked, target_digest, sealed_config, created_at)
        values ((select auth.uid()), $1, $2, $3, $4, $5, clock_timestamp()) returning id`,
      [record.type, record.name, record.targetMasked, record.targetDigest, record.sealedConfig],
    );
    return { id: String(row.id) };
  });
}

/** Switches e-mail alerts (the email channel's switch), as the user. */
export async function writeEmailAlerts(
  sql: Sql,
  enabled: boolean,
  options: { defaultRegion: string; now: number },
): Promise<void> {
  await sql.query(
    `insert into public.user_services (user_id, region, email_alerts, updated_at)
      values ((select auth.uid()), $2, $1, $3)
      on conflict (user_id) do update set email_alerts = $1, updated_at = $3`,
    [enabled, options.defaultRegion, new Date(options.now).toISOString()],
  );
}

/** Renames or switches a channel of the user's; false when there is none. */
export async function updateChannel(
  store: Store,
  userId: string,
  options: { id: string; name?: string; enabled?: boolean; defaultRegion: string; now: number },
): Promise<boolean> {
  return await store.asUser(userId, async (tx) => {
    const [row] = await tx.query<{ type: string }>(
      `update public.alert_channels set name = coalesce($2, name),
          enabled = coalesce($3, enabled),
          -- Switched back on, it starts its count of failures in a row again.
          consecutive_failures = case when $3 then 0 else consecutive_failures end
        where id = $1::uuid returning type`,
      [options.id, options.name ?? null, options.enabled ?? null],
    );
    if (!row) return false;
    if (row.type === "email" && options.enabled !== undefined) {
      await writeEmailAlerts(tx, options.enabled, options);
    }
    return true;
  });
}

/** Deletes a channel of the user's (the email channel also switches e-mail alerts off). */
export async function deleteChannel(
  store: Store,
  userId: string,
  options: { id: string; now: number },
): Promise<boolean> {
  return await store.asUser(userId, async (tx) => {
    const [row] = await tx.query<{ type: string }>(
      `delete from public.alert_channels where id = $1::uuid returning type`,
      [options.id],
    );
    if (!row) return false;
    if (row.type === "email") {
      await tx.query(
        `update public.user_services set email_alerts = false, updated_at = $1
          where user_id = (select auth.uid())`,
        [new Date(options.now).toISOString()],
      );
    }
    return true;
  });
}
