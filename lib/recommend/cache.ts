/**
 * The stored set of a user (table `recommendations`): reused while unexpired (7 days) and
 * while the watched history hashes the same. My List is not part of the hash.
 */
import type { Sql } from "../platform/store/mod.ts";

/** How long a stored set is reused. */
export const CACHE_TTL_MS = 7 * 86_400_000;

/** A stored set; `reasons` maps a catalog id (as a string) to its reason. */
export interface StoredSet {
  ids: number[];
  watchedHash: string;
  expiresAt: Date;
  reasons: Record<string, string>;
  /** When it was made (set by the store on write). */
  createdAt?: Date;
}

/** SHA-256 hex of the watched ids sorted ascending and joined by "," (docs/api.md). */
export async function watchedHash(ids: number[]): Promise<string> {
  const text = [...ids].sort((a, b) => a - b).join(",");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Reads the user's stored set inside the user's transaction. */
export async function readStoredSet(tx: Sql, userId: string): Promise<StoredSet | null> {
  const [row] = await tx.query<
    {
      catalog_ids: number[];
      watched_hash: string;
      expires_at: unknown;
      reasons: unknown;
      created_at: unknown;
    }
  >(
    `select catalog_ids, watched_hash, expires_at, reasons, created_at
       from public.recommendations where user_id = $1`,
    [userId],
  );
  if (!row) return null;
  const reasons = typeof row.reasons === "string" ? JSON.parse(row.reasons) : row.reasons;
  return {
    ids: row.catalog_ids.map(Number),
    watchedHash: row.watched_hash,
    expiresAt: new Date(row.expires_at as string | Date),
    reasons: reasons && typeof reasons === "object" ? reasons as Record<string, string> : {},
    createdAt: new Date(row.created_at as string | Date),
  };
}

/** Stores (or overwrites) the user's set inside the user's transaction. */
export async function writeStoredSet(
  tx: Sql,
  set: StoredSet & { userId: string },
): Promise<void> {
  await tx.query(
    `insert into public.recommendations
       (user_id, catalog_ids, watched_hash, expires_at, reasons, created_at)
     values ($1, $2::int[], $3, $4::timestamptz, $5::text::jsonb, coalesce($6::timestamptz, now()))
     on conflict (user_id) do update
       set catalog_ids = excluded.catalog_ids,
           watched_hash = excluded.watched_hash,
           expires_at = excluded.expires_at,
           reasons = excluded.reasons,
           created_at = excluded.created_at`,
    [
      set.userId,
      set.ids,
      set.watchedHash,
      set.expiresAt.toISOString(),
      JSON.stringify(set.reasons),
      set.createdAt?.toISOString() ?? null,
    ],
  );
}

/** Whether `set` may be reused as is at `now` for the history hashing to `hash`. */
export function isReusable(
  set: StoredSet | null,
  options: { hash: string; now: number },
): set is StoredSet {
  const { hash, now } = options;
  return set !== null && set.watchedHash === hash && set.expiresAt.getTime() > now;
}
