/**
 * The KV keys that belong to one user: a feature's prefix, then the user id. They are built here
 * and nowhere else, so the account deletion (lib/identity/auth/delete_account.ts) lists exactly
 * the prefixes the features write under, though it sits below every feature.
 */
import type { KvKey } from "./kv.ts";

const RECOMMEND_QUOTA = "recommend_quota";

/** The prefixes followed by a user id: add one here when a feature keys KV entries by user. */
export const USER_KV_PREFIXES: readonly string[] = [RECOMMEND_QUOTA];

/** The key of a user's recommendation quota count on a UTC day (`YYYY-MM-DD`). */
export function recommendQuotaKey(userId: string, day: string): KvKey {
  return [RECOMMEND_QUOTA, userId, day];
}
