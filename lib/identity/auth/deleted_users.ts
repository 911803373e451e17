/**
 * Users deleted in Supabase mode. Supabase's access tokens are checked against its JWKS alone,
 * so a deleted user's token would work until it expires; a KV mark (shared by every instance)
 * refuses it at once. It is kept a week, longer than Supabase lets an access token live.
 */
import { commitWithRetry, getWithRetry, type Kv } from "@/lib/platform/kv/kv.ts";

const KEPT_MS = 7 * 86_400_000 + 3_600_000;

/** Marks a user deleted. */
export async function markUserDeleted(kv: Kv, userId: string): Promise<void> {
  await commitWithRetry(() =>
    kv.atomic().set(["deleted_user", userId], true, { expireIn: KEPT_MS })
  );
}

/** Whether the user was deleted here. */
export async function isUserDeleted(kv: Kv, userId: string): Promise<boolean> {
  return (await getWithRetry<boolean>(kv, ["deleted_user", userId])).value === true;
}
