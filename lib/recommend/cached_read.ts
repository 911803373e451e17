/**
 * The first read of GET /api/recommend, one statement (docs/recommend.md, "Reads"): whether the
 * token is still good, whether anything is watched, and the stored set with whether the history
 * still hashes as it did when the set was made. PostgreSQL computes that SHA-256 over the very
 * text `watchedHash` hashes (the ids ascending, joined by ","), so no id leaves the database and
 * a cached answer costs one round trip however long the history.
 */
import type { SessionCheck } from "../platform/session_check.ts";
import type { Sql } from "../platform/store/mod.ts";

/** What the statement found: how much is watched and the stored set, if any. */
interface HistoryState {
  watchedCount: number;
  /** The stored set's ids, expiry and whether the history hashes as when it was made. */
  stored: { ids: number[]; expiresAt: Date; sameHistory: boolean } | null;
}

// An aggregate without GROUP BY always yields its one row, so the answer has a row even with
// nothing watched and nothing stored.
const historySql = (live: string) =>
  `select ${live} as live,
    w.watched_count as "watchedCount", r.catalog_ids as ids, r.expires_at as "expiresAt",
    r.watched_hash = w.hash as "sameHistory"
  from (select count(*)::int as watched_count,
          encode(sha256(convert_to(
            coalesce(string_agg(catalog_id::text, ',' order by catalog_id), ''), 'UTF8')), 'hex')
            as hash
        from public.user_watched_movies where user_id = $1::uuid) w
  left join public.recommendations r on r.user_id = $1::uuid`;

/** Reads the user's history state in one statement; settles `session` (401 when it ended). */
export async function readHistoryState(
  sql: Sql,
  userId: string,
  options: { session?: SessionCheck } = {},
): Promise<HistoryState> {
  const { session } = options;
  const live = session ? session.liveSql("$1", session.sessionId === null ? null : "$2") : "true";
  const params = session?.sessionId ? [userId, session.sessionId] : [userId];
  const [row] = await sql.query<{
    live: boolean | null;
    watchedCount: number;
    ids: number[] | null;
    expiresAt: unknown;
    sameHistory: boolean | null;
  }>(historySql(live), params);
  session?.settle(row.live);
  return {
    watchedCount: Number(row.watchedCount),
    stored: row.ids === null ? null : {
      ids: row.ids.map(Number),
      expiresAt: new Date(row.expiresAt as string | Date),
      sameHistory: row.sameHistory === true,
    },
  };
}
