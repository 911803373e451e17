/**
 * A generation's picks become the stored set: each reason cleaned against its owner (never
 * the user's email or id), and a movie dismissed while the AI worked left out.
 */
import type { Sql, Store } from "../platform/store/mod.ts";
import { CACHE_TTL_MS, writeStoredSet } from "./cache.ts";
import { dismissedIds } from "./dismissed.ts";
import type { Pick } from "./ai_rounds.ts";
import { cleanReason } from "./reasons.ts";

/** The user's email, read with server privileges: what a reason must never echo. */
export async function emailOf(store: Store, userId: string): Promise<string | null> {
  const [row] = await store.query<{ email: string | null }>(
    `select email from auth.users where id = $1`,
    [userId],
  );
  return row?.email ?? null;
}

/** Writes `picks` as the user's set inside the user's transaction; returns the stored ids. */
export async function storePicks(
  tx: Sql,
  userId: string,
  options: { picks: Pick[]; watchedHash: string; email: string | null; now: number },
): Promise<number[]> {
  const { picks, now } = options;
  const owner = { userId, email: options.email };
  const dismissed = new Set(await dismissedIds(tx, userId));
  const kept = picks.filter((p) => !dismissed.has(p.catalogId));
  const ids = kept.map((p) => p.catalogId);
  await writeStoredSet(tx, {
    userId,
    ids,
    watchedHash: options.watchedHash,
    reasons: Object.fromEntries(
      kept.map((p) => [String(p.catalogId), cleanReason(p.reason, owner)]),
    ),
    createdAt: new Date(now),
    expiresAt: new Date(now + CACHE_TTL_MS),
  });
  return ids;
}
