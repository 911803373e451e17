/**
 * Sessions of the built-in provider and their rotating refresh tokens (auth.sessions,
 * auth.refresh_tokens). A refresh token is stored as its SHA-256 only. Each refresh revokes the
 * presented token and issues its child; presenting a revoked one again means it was copied, so
 * the whole session ends (deleting it deletes its tokens, and its access tokens stop working) -
 * unless it comes back within the reuse interval, as two tabs refreshing at once do.
 */
import type { Sql, Store } from "@/lib/platform/store/mod.ts";
import { verifiedFactorSql } from "../mfa/code_owed.ts";
import { GoTrueError } from "./gotrue_error.ts";
import { UUID } from "./users.ts";

/** A session just started or refreshed: the refresh token is shown once, to its holder. */
export interface IssuedSession {
  sessionId: string;
  userId: string;
  refreshToken: string;
  /** The session's assurance level (`aal2` once a second factor was verified in it). */
  aal?: "aal1" | "aal2";
}

/** How long a rotated refresh token is remembered (its reuse ends the session meanwhile). */
const ROTATED_KEPT_MS = 30 * 86_400_000;

/**
 * How long after its rotation a refresh token may be presented again (Supabase Auth's
 * REFRESH_TOKEN_REUSE_INTERVAL, 10 s): it answers the same session instead of ending it.
 */
export const REUSE_INTERVAL_MS = 10_000;

/** What a logout ends: this session, every session of the user, or all but this one. */
export type LogoutScope = "local" | "global" | "others";

/** SHA-256 hex of a refresh token: what auth.refresh_tokens.token holds. */
export async function hashToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function newRefreshToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** A fresh refresh token in an existing session (its level just changed; the old ones end). */
export async function replaceRefreshTokens(
  tx: Sql,
  session: { userId: string; sessionId: string },
  options: { now: number },
): Promise<string> {
  await tx.query(`delete from auth.refresh_tokens where session_id = $1`, [session.sessionId]);
  return await insertToken(tx, { ...session, parent: null }, options.now);
}

async function insertToken(
  tx: Sql,
  row: { userId: string; sessionId: string; parent: string | null },
  now: number,
): Promise<string> {
  const token = newRefreshToken();
  await tx.query(
    `insert into auth.refresh_tokens
       (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false,
       to_timestamp($3 / 1000.0), to_timestamp($3 / 1000.0), $4, $5)`,
    [await hashToken(token), row.userId, now, row.parent, row.sessionId],
  );
  return token;
}

/** Starts a session for a user who just signed in. */
export async function startSession(
  store: Store,
  userId: string,
  options: { now: number },
): Promise<IssuedSession> {
  const sessionId = crypto.randomUUID();
  return await store.transaction(async (tx) => {
    await tx.query(
      `insert into auth.sessions (id, user_id, created_at, updated_at)
       values ($1, $2, to_timestamp($3 / 1000.0), to_timestamp($3 / 1000.0))`,
      [sessionId, userId, options.now],
    );
    const refreshToken = await insertToken(tx, { userId, sessionId, parent: null }, options.now);
    return { sessionId, userId, refreshToken };
  });
}

interface TokenRow {
  id: string;
  revoked: boolean;
  /** When it was rotated (its last update), in ms since the epoch. */
  updated_ms: number;
  user_id: string;
  session_id: string | null;
  token: string;
}

/**
 * Exchanges a refresh token for its child. Unknown: 400 refresh_token_not_found. Already
 * rotated within the reuse interval: another child in the same session (the first child's text
 * is stored only as its hash, so it cannot be answered again). Rotated before that: the session
 * is revoked and 400 refresh_token_already_used.
 */
export async function rotateRefreshToken(
  store: Store,
  refreshToken: string,
  options: { now: number },
): Promise<IssuedSession> {
  const hash = await hashToken(refreshToken);
  const outcome = await store.transaction(async (tx) => {
    // The row lock makes two refreshes of one token take turns: the second sees it revoked.
    const [row] = await tx.query<TokenRow>(
      `select id::text as id, revoked, user_id, session_id::text as session_id, token,
         (extract(epoch from updated_at) * 1000)::float8 as updated_ms
         from auth.refresh_tokens where token = $1 for update`,
      [hash],
    );
    if (!row || !row.session_id) return { error: "not_found" as const };
    if (row.revoked && options.now - Number(row.updated_ms) > REUSE_INTERVAL_MS) {
      await tx.query(`delete from auth.sessions where id = $1`, [row.session_id]);
      return { error: "reused" as const };
    }
    // Within the interval the token stays as it was rotated, so the interval is not extended.
    if (!row.revoked) {
      await tx.query(
        `update auth.refresh_tokens set revoked = true, updated_at = to_timestamp($2 / 1000.0)
         where id = $1`,
        [row.id, options.now],
      );
    }
    const [level] = await tx.query<{ aal: string | null }>(
      `update auth.sessions set refreshed_at = to_timestamp($2 / 1000.0) at time zone 'utc',
         updated_at = to_timestamp($2 / 1000.0)
       where id = $1 returning aal::text as aal`,
      [row.session_id, options.now],
    );
    const next = await insertToken(
      tx,
      { userId: row.user_id, sessionId: row.session_id, parent: row.token },
      options.now,
    );
    // Rotated tokens are kept to catch their reuse, but not forever: a session refreshed
    // hourly would otherwise grow by 24 rows a day.
    await tx.query(
      `delete from auth.refresh_tokens
       where session_id = $1 and revoked and updated_at < to_timestamp($2 / 1000.0)`,
      [row.session_id, options.now - ROTATED_KEPT_MS],
    );
    const aal = level?.aal === "aal2" ? "aal2" as const : "aal1" as const;
    return {
      session: { sessionId: row.session_id, userId: row.user_id, refreshToken: next, aal },
    };
  });
  if (outcome.error === "reused") {
    throw new GoTrueError(400, "refresh_token_already_used", "Invalid Refresh Token: Already Used");
  }
  if (outcome.error === "not_found") {
    throw new GoTrueError(
      400,
      "refresh_token_not_found",
      "Invalid Refresh Token: Refresh Token Not Found",
    );
  }
  return outcome.session;
}

/** Ends sessions of a user; with no current session id, `local` ends nothing. */
export async function endSessions(
  store: Sql,
  userId: string,
  options: { scope: LogoutScope; sessionId?: string },
): Promise<void> {
  const { scope, sessionId } = options;
  if (scope === "global") {
    await store.query(`delete from auth.sessions where user_id = $1`, [userId]);
  } else if (!sessionId) {
    if (scope === "others") {
      await store.query(`delete from auth.sessions where user_id = $1`, [userId]);
    }
  } else if (scope === "local") {
    await store.query(`delete from auth.sessions where id = $1 and user_id = $2`, [
      sessionId,
      userId,
    ]);
  } else {
    await store.query(`delete from auth.sessions where user_id = $1 and id <> $2`, [
      userId,
      sessionId,
    ]);
  }
}

/**
 * Where a token's user and session stand: both live, the user gone, the session ended, or live
 * but owing its second factor (an aal1 token of a user with a verified factor).
 */
export type SessionState = "live" | "code_owed" | "user_not_found" | "session_not_found";

const userExistsSql = (user: string) =>
  `exists (select 1 from auth.users where id = ${user}::uuid)`;

const sessionRowSql = (user: string, session: string) =>
  `exists (select 1 from auth.sessions where id = ${session}::uuid and user_id = ${user}::uuid)`;

/**
 * The SQL condition that a token is still good, for a statement that checks it itself: its
 * session (parameter `session`) is live, or, for a token naming no session (null), its user
 * (parameter `user`) exists. A session row implies its user's: deleting a user deletes them.
 * With `aal1` (a token without a second factor) it is null, not true, when the user has a
 * verified factor: no row passes a `where`, and a read that selects it tells 401 from 403.
 */
export function tokenLiveSql(
  user: `$${number}`,
  session: `$${number}` | null,
  options: { aal1?: boolean } = {},
): string {
  const live = session === null ? userExistsSql(user) : sessionRowSql(user, session);
  if (!options.aal1) return live;
  return `(case when not ${live} then false when ${verifiedFactorSql(user)} then null
    else true end)`;
}

const SESSION_STATE_SQL = `select ${userExistsSql("$1")} as user_exists,
  ($2::uuid is null or ${sessionRowSql("$1", "$2")}) as session_exists,
  ($3::boolean and ${verifiedFactorSql("$1")}) as code_owed`;

/**
 * Checks, in one query, that the user exists and (if the token names one) its session does;
 * with `aal1` (the token's level is below aal2), also whether the user has a verified factor.
 */
export async function sessionState(
  store: Store,
  userId: string,
  options: { sessionId?: string; aal1?: boolean } = {},
): Promise<SessionState> {
  const { sessionId } = options;
  if (!UUID.test(userId) || (sessionId !== undefined && !UUID.test(sessionId))) {
    return "user_not_found";
  }
  const [row] = await store.query<
    { user_exists: boolean; session_exists: boolean; code_owed: boolean }
  >(SESSION_STATE_SQL, [userId, sessionId ?? null, options.aal1 === true]);
  if (!row.user_exists) return "user_not_found";
  if (!row.session_exists) return "session_not_found";
  return row.code_owed ? "code_owed" : "live";
}
