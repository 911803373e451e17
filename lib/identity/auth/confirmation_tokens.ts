/**
 * Signup confirmation tokens (public.signup_confirmations): 32 random bytes mailed in the
 * confirmation link, stored as their SHA-256 only, good for one use within 24 hours of the
 * injected clock.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";
import { hashToken } from "./sessions.ts";

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** How long a confirmation link works (GoTrue's default mailer OTP lifetime is one day too). */
const CONFIRMATION_TTL_MS = 24 * 60 * 60_000;

/**
 * Issues the user's confirmation token; earlier ones stop working (only the latest mail's link
 * does). Returns the token itself, which only the mail carries.
 */
export async function issueConfirmationToken(
  sql: Sql,
  userId: string,
  options: { now: number },
): Promise<string> {
  const token = newToken();
  await sql.query(
    `with dropped as (delete from public.signup_confirmations where user_id = $2)
     insert into public.signup_confirmations (token_hash, user_id, created_at, expires_at)
     values ($1, $2, to_timestamp($3 / 1000.0), to_timestamp($4 / 1000.0))`,
    [await hashToken(token), userId, options.now, options.now + CONFIRMATION_TTL_MS],
  );
  return token;
}

/**
 * Spends a token and confirms its user's address in one statement, so two uses at once cannot
 * both succeed. The user's id, or null for an unknown, spent or expired token.
 */
export async function redeemConfirmationToken(
  sql: Sql,
  token: string,
  options: { now: number },
): Promise<string | null> {
  if (!token || token.length > 200) return null;
  const [row] = await sql.query<{ user_id: string }>(
    `with spent as (
       delete from public.signup_confirmations where token_hash = $1
       returning user_id, expires_at > to_timestamp($2 / 1000.0) as fresh)
     update auth.users u
     set email_confirmed_at = coalesce(u.email_confirmed_at, to_timestamp($2 / 1000.0)),
       updated_at = to_timestamp($2 / 1000.0)
     from spent where u.id = spent.user_id and spent.fresh
     returning u.id::text as user_id`,
    [await hashToken(token), options.now],
  );
  return row?.user_id ?? null;
}
