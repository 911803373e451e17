/** The `user_services` row of a user: read with the server's privileges, written as the user. */
import type { Sql, Store } from "@/lib/platform/store/mod.ts";
import type { ServiceSettings, SettingsChange } from "./settings.ts";

const READ_SQL = `select region, provider_ids as "providerIds", only_mine as "onlyMine",
    email_alerts as "emailAlerts"
  from public.user_services where user_id = $1::uuid`;

// Fields not named keep their stored value, or the default of a user without a row.
const UPSERT_SQL = `insert into public.user_services
    (user_id, region, provider_ids, only_mine, email_alerts, updated_at)
  values ((select auth.uid()), coalesce($1, $5), coalesce($2::integer[], '{}'),
    coalesce($3, false), coalesce($4, false), $6)
  on conflict (user_id) do update set
    region = coalesce($1, user_services.region),
    provider_ids = coalesce($2::integer[], user_services.provider_ids),
    only_mine = coalesce($3, user_services.only_mine),
    email_alerts = coalesce($4, user_services.email_alerts),
    updated_at = $6
  returning region, provider_ids as "providerIds", only_mine as "onlyMine",
    email_alerts as "emailAlerts"`;

function toSettings(row: Record<string, unknown>): ServiceSettings {
  return {
    region: String(row.region),
    providerIds: (row.providerIds as unknown[]).map(Number),
    onlyMine: Boolean(row.onlyMine),
    emailAlerts: Boolean(row.emailAlerts),
  };
}

/** The stored settings, or null when the user never chose any. */
export async function readSettings(sql: Sql, userId: string): Promise<ServiceSettings | null> {
  const [row] = await sql.query(READ_SQL, [userId]);
  return row ? toSettings(row) : null;
}

/** Applies `change` as the user (row-level security) and returns the settings now stored. */
export async function writeSettings(
  store: Store,
  userId: string,
  options: { change: SettingsChange; defaultRegion: string; now: number },
): Promise<ServiceSettings> {
  const { change } = options;
  const [row] = await store.asUser(userId, (tx) =>
    tx.query(UPSERT_SQL, [
      change.region ?? null,
      change.providerIds ?? null,
      change.onlyMine ?? null,
      change.emailAlerts ?? null,
      options.defaultRegion,
      new Date(options.now).toISOString(),
    ]));
  return toSettings(row);
}

/** Turns e-mail alerts off (the one-click unsubscribe; the server acts for the token's user). */
export async function disableAlerts(sql: Sql, userId: string): Promise<boolean> {
  const rows = await sql.query(
    `update public.user_services set email_alerts = false
      where user_id = $1::uuid and email_alerts returning 1`,
    [userId],
  );
  return rows.length > 0;
}
