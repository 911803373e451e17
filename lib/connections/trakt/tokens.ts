/**
 * Trakt OAuth tokens (docs/trakt.md, "Sign-in"): one authorization per signed-in app holds an
 * access token (90 days) and a refresh token (until used or revoked), both kept as SHA-256; a
 * refresh replaces both, so a refresh token works once.
 */
import type { Clock } from "@/lib/core/clock.ts";
import type { Sql } from "@/lib/platform/store/types.ts";
import { isSecretShaped, randomSecret, secretDigest } from "./oauth_secrets.ts";

/** Access tokens last 90 days, as Trakt's (`expires_in` 7,776,000). */
const ACCESS_TOKEN_SECONDS = 7_776_000;

// last_used_at is written at most once a minute, so a busy player does not write on every call.
const TOUCH_MS = 60_000;

/** What the sign-in flows run on: a statement runner (the store or a transaction) and the clock. */
export interface OAuthDeps {
  sql: Sql;
  clock: Clock;
}

/** The token answer of /trakt/oauth/token and /trakt/oauth/device/token, as Trakt sends it. */
export interface TokenAnswer {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  refresh_token: string;
  scope: "public";
  created_at: number;
}

/** Who an access token acts for. */
export interface TokenHolder {
  authorizationId: string;
  userId: string;
  clientId: string;
}

async function newPair(clock: Clock) {
  const access = randomSecret();
  const refresh = randomSecret();
  const now = clock.now();
  return {
    access,
    refresh,
    accessHash: await secretDigest(access),
    refreshHash: await secretDigest(refresh),
    now: new Date(now).toISOString(),
    expiresAt: new Date(now + ACCESS_TOKEN_SECONDS * 1000).toISOString(),
    answer(): TokenAnswer {
      return {
        access_token: access,
        token_type: "bearer",
        expires_in: ACCESS_TOKEN_SECONDS,
        refresh_token: refresh,
        scope: "public",
        created_at: Math.floor(now / 1000),
      };
    },
  };
}

/** A new authorization for `userId` and the app `clientId` (own app: `appId`), and its tokens. */
export async function issueTokens(
  { sql, clock }: OAuthDeps,
  grant: { userId: string; clientId: string; appId: string | null },
): Promise<TokenAnswer> {
  const pair = await newPair(clock);
  await sql.query(
    `insert into public.trakt_authorizations
       (id, user_id, client_id, app_id, access_hash, access_expires_at, refresh_hash,
        created_at, refreshed_at)
     values ($1, $2, $3, $4, $5, $6::timestamptz, $7, $8::timestamptz, $8::timestamptz)`,
    [
      crypto.randomUUID(),
      grant.userId,
      grant.clientId,
      grant.appId,
      pair.accessHash,
      pair.expiresAt,
      pair.refreshHash,
      pair.now,
    ],
  );
  return pair.answer();
}

/**
 * The new tokens for a refresh token of `clientId`, the old pair dead in the same statement;
 * undefined when the refresh token is unknown, already used or of another client.
 */
export async function rotateTokens(
  { sql, clock }: OAuthDeps,
  input: { refreshToken: string; clientId: string },
): Promise<TokenAnswer | undefined> {
  if (!isSecretShaped(input.refreshToken)) return undefined;
  const pair = await newPair(clock);
  const rows = await sql.query(
    `update public.trakt_authorizations
        set access_hash = $3, refresh_hash = $4, access_expires_at = $5::timestamptz,
            refreshed_at = $6::timestamptz
      where refresh_hash = $1 and client_id = $2
      returning id`,
    [
      await secretDigest(input.refreshToken),
      input.clientId,
      pair.accessHash,
      pair.refreshHash,
      pair.expiresAt,
      pair.now,
    ],
  );
  return rows.length ? pair.answer() : undefined;
}

/** Ends the authorization that `token` (its access or refresh token) belongs to, for `clientId`. */
export async function revokeToken(
  sql: Sql,
  input: { token: string; clientId: string },
): Promise<boolean> {
  if (!isSecretShaped(input.token)) return false;
  const digest = await secretDigest(input.token);
  const rows = await sql.query(
    `delete from public.trakt_authorizations
      where (access_hash = $1 or refresh_hash = $1) and client_id = $2 returning id`,
    [digest, input.clientId],
  );
  return rows.length > 0;
}

// One statement: find the live token, and note its use when the last note is old.
const VERIFY_SQL = `with hit as (
    select id, user_id, client_id, last_used_at from public.trakt_authorizations
     where access_hash = $1 and access_expires_at > $2::timestamptz
  ), touched as (
    update public.trakt_authorizations a set last_used_at = $2::timestamptz
      from hit
     where a.id = hit.id
       and (hit.last_used_at is null or hit.last_used_at <= $2::timestamptz - $3::interval)
  )
  select id as "authorizationId", user_id as "userId", client_id as "clientId" from hit`;

/** The holder of a live access token, or undefined (unknown, revoked, expired). */
export async function verifyAccessToken(
  { sql, clock }: OAuthDeps,
  token: string,
): Promise<TokenHolder | undefined> {
  if (!isSecretShaped(token)) return undefined;
  const [row] = await sql.query<TokenHolder>(VERIFY_SQL, [
    await secretDigest(token),
    new Date(clock.now()).toISOString(),
    `${TOUCH_MS} milliseconds`,
  ]);
  return row ? { ...row, authorizationId: String(row.authorizationId) } : undefined;
}
