/**
 * Password recovery tokens (public.recovery_tokens): 32 random bytes mailed in the reset link,
 * stored as their SHA-256 only, good for one use within an hour of the injected clock.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";
import { hashToken } from "./sessions.ts";

/** How long a reset link works. */
const RECOVERY_TOKEN_TTL_MS = 60 * 60_000;

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/**
 * Issues the user's recovery token; earlier ones stop working (as in GoTrue, only the latest
 * mail's link does). Returns the token itself, which only the mail carries.
 */
export async function issueRecoveryToken(
  sql: Sql,
  userId: string,
  options: { now: number },
): Promise<string> {
  const token = newToken();
  await sql.query(
    `with dropped as (delete from public.recovery_tokens where user_id = $2)
     insert into public.recovery_tokens (token_hash, user_id, created_at, expires_at)
     values ($1, $2, to_timestamp($3 / 1000.0), to_timestamp($4 / 1000.0))`,
    [await hashToken(token), userId, options.now, options.now + RECOVERY_TOKEN_TTL_MS],
  );
  return token;
}

/**
 * Spends a token: one statement deletes it and says whose it was, so two uses at once cannot
 * both succeed. Null for an unknown, spent or expired token.
 */
export async function redeemRecoveryToken(
  sql: Sql,
  token: string,
  options: { now: number },
): Promise<string | null> {
  if (!token || token.length > 200) return null;
  const [row] = await sql.query<{ user_id: string; expired: boolean }>(
    `delete from public.recovery_tokens where token_hash = $1
     returning user_id::text as user_id, expires_at <= to_timestamp($2 / 1000.0) as expired`,
    [await hashToken(token), options.now],
  );
  return row && !row.expired ? row.user_id : null;
}

/** Ends every outstanding reset link of a user (after a password change). */
export async function dropRecoveryTokens(sql: Sql, userId: string): Promise<void> {
  await sql.query(`delete from public.recovery_tokens where user_id = $1`, [userId]);
}
