/**
 * The account reads of /trakt (docs/trakt.md, "Reads"): the user's settings as Trakt answers
 * them, and when each kind of their data last changed (sync/last_activities), read from the
 * times the store's triggers keep on every write.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";
import { isoSql } from "./sync_reads.ts";

/** Before anything changed: the epoch, as Trakt answers for a kind a user never touched. */
const NEVER = "1970-01-01T00:00:00.000Z";

/** `GET /users/settings`: the profile's handle and name, or the user id when there is none. */
export async function readTraktSettings(sql: Sql, userId: string) {
  const [profile] = await sql.query<
    { handle: string; display_name: string; public: boolean }
  >(
    `select handle, display_name, public from public.user_profiles where user_id = $1::uuid`,
    [userId],
  );
  const username = profile?.handle ?? userId;
  return {
    user: {
      username,
      private: !(profile?.public ?? false),
      name: profile?.display_name ?? "",
      vip: false,
      vip_ep: false,
      ids: { slug: username },
    },
    account: { timezone: "UTC", date_format: "mdy", time_24hr: false },
    connections: {},
    sharing_text: {},
    limits: {},
  };
}

/** `GET /sync/last_activities`: every time of Trakt's shape, the movie and list ones moving. */
export async function readLastActivities(sql: Sql, userId: string) {
  const rows = await sql.query<{ kind: string; at: string }>(
    `select kind, ${isoSql("changed_at")} as at
       from public.user_trakt_activity where user_id = $1::uuid`,
    [userId],
  );
  const at = new Map(rows.map((r) => [r.kind, r.at]));
  const of = (kind: string) => at.get(kind) ?? NEVER;
  const all = [NEVER, ...at.values()].sort().at(-1)!;
  return {
    all,
    movies: {
      watched_at: of("watched"),
      collected_at: NEVER,
      rated_at: of("rated"),
      watchlisted_at: of("watchlisted"),
      recommendations_at: NEVER,
      commented_at: NEVER,
      paused_at: of("paused"),
      hidden_at: of("hidden"),
    },
    episodes: {
      watched_at: NEVER,
      collected_at: NEVER,
      rated_at: NEVER,
      watchlisted_at: NEVER,
      commented_at: NEVER,
      paused_at: NEVER,
    },
    shows: {
      rated_at: NEVER,
      watchlisted_at: NEVER,
      recommendations_at: NEVER,
      commented_at: NEVER,
      hidden_at: NEVER,
    },
    seasons: { rated_at: NEVER, watchlisted_at: NEVER, commented_at: NEVER, hidden_at: NEVER },
    comments: { liked_at: NEVER, blocked_at: NEVER },
    lists: { liked_at: NEVER, updated_at: of("lists"), commented_at: NEVER },
    watchlist: { updated_at: of("watchlisted") },
    favorites: { updated_at: NEVER },
    recommendations: { updated_at: NEVER },
    collaborations: { updated_at: NEVER },
    account: {
      settings_at: of("account"),
      followed_at: NEVER,
      following_at: NEVER,
      pending_at: NEVER,
      requested_at: NEVER,
    },
    saved_filters: { updated_at: NEVER },
    notes: { updated_at: NEVER },
  };
}
