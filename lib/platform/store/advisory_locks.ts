/**
 * PostgreSQL advisory locks by name: each kind of write that must take turns has its namespace
 * here (the seed of `hashtextextended`, so one user's keys differ per kind), and no number is
 * ever reused for another kind. Transaction-scoped: the lock ends with the transaction.
 */
import type { Sql } from "./types.ts";

/** The namespaces in use; a new kind of lock takes a new number. */
const NAMESPACES = {
  /** A user's list writes (watched, My List, and the history import's batches). */
  userEntries: 6,
  /** A user's dismissals, so two at once cannot both pass the limit. */
  userDismissals: 16,
  /** A user's own lists (creations and imports), so the count checked is the count inserted. */
  userLists: 27,
  /** A user's personal access token creations, for the same reason. */
  personalTokens: 28,
  // 29: the coordination schema's keys, taken in SQL by coordination.lock_keys
  // (supabase/migrations/20261129010000_coordination.sql; docs/coordination.md).
  // 30: a user's kept figures (the year in review and the watched counts), taken in SQL by
  // public.stats_lock_users (supabase/migrations/20261129070000_stats_user_locks.sql).
} as const;

/** The name of a lock namespace. */
type LockNamespace = keyof typeof NAMESPACES;

/** The one key every instance's migrations run under (a plain key, outside the namespaces). */
export const MIGRATIONS_LOCK_KEY = 7_411_982_503;

const LOCK_SQL = `select pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended($1, $2))`;

/** Waits for `key`'s lock in `namespace`, held until `tx` ends. */
export async function lockForTransaction(
  tx: Sql,
  namespace: LockNamespace,
  key: string,
): Promise<void> {
  await tx.query(LOCK_SQL, [key, NAMESPACES[namespace]]);
}
