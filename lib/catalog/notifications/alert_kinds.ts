/**
 * The user's alert kinds (docs/availability.md, "Release alerts"): which of the four kinds the
 * availability job makes for them. No row means the defaults: everything but discs.
 */
import type { Sql, Store } from "@/lib/platform/store/mod.ts";

/** The kinds a user switches on or off (channel notices are not one of them). */
export const ALERT_KINDS = ["now_streaming", "in_theaters", "on_digital", "on_physical"] as const;

/** One user-switchable kind. */
type AlertKind = typeof ALERT_KINDS[number];

/** Each kind's switch. */
export type AlertKinds = Record<AlertKind, boolean>;

/** A user without a row gets these. */
const DEFAULT_ALERT_KINDS: Readonly<AlertKinds> = Object.freeze({
  now_streaming: true,
  in_theaters: true,
  on_digital: true,
  on_physical: false,
});

const COLUMNS = "now_streaming, in_theaters, on_digital, on_physical";

function toKinds(row: Record<string, unknown> | undefined): AlertKinds {
  if (!row) return { ...DEFAULT_ALERT_KINDS };
  return {
    now_streaming: Boolean(row.now_streaming),
    in_theaters: Boolean(row.in_theaters),
    on_digital: Boolean(row.on_digital),
    on_physical: Boolean(row.on_physical),
  };
}

/** The user's switches (the defaults when they never chose), read with the server's privileges. */
export async function readAlertKinds(store: Sql, userId: string): Promise<AlertKinds> {
  const [row] = await store.query(
    `select ${COLUMNS} from public.user_alert_settings where user_id = $1::uuid`,
    [userId],
  );
  return toKinds(row);
}

// Kinds not named keep their stored value, or the default of a user without a row.
const UPSERT_SQL = `insert into public.user_alert_settings
    (user_id, ${COLUMNS}, updated_at)
  values ((select auth.uid()), coalesce($1::boolean, $5::boolean),
    coalesce($2::boolean, $6::boolean), coalesce($3::boolean, $7::boolean),
    coalesce($4::boolean, $8::boolean), now())
  on conflict (user_id) do update set
    now_streaming = coalesce($1::boolean, user_alert_settings.now_streaming),
    in_theaters = coalesce($2::boolean, user_alert_settings.in_theaters),
    on_digital = coalesce($3::boolean, user_alert_settings.on_digital),
    on_physical = coalesce($4::boolean, user_alert_settings.on_physical),
    updated_at = now()
  returning ${COLUMNS}`;

/** Stores `kinds` as the user (row-level security; kinds not named stay) and returns all four. */
export async function writeAlertKinds(
  store: Store,
  userId: string,
  kinds: Partial<AlertKinds>,
): Promise<AlertKinds> {
  const [row] = await store.asUser(userId, (tx) =>
    tx.query(UPSERT_SQL, [
      ...ALERT_KINDS.map((k) => kinds[k] ?? null),
      ...ALERT_KINDS.map((k) => DEFAULT_ALERT_KINDS[k]),
    ]));
  return toKinds(row);
}
