/**
 * `POST /auth/v1/token` of the built-in provider: the password and refresh_token grants, each
 * answering GoTrue's AccessTokenResponse (notes, section 2) or one of its errors.
 */
import { z } from "zod";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { type Aal, AAL_METHODS, ACCESS_TOKEN_TTL_S, type AmrEntry } from "./access_token.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";
import { listFactors, toGoTrueFactor } from "../mfa/factors.ts";
import { limitSubject } from "./limit_subject.ts";
import { GoTrueError, invalidCredentials } from "./gotrue_error.ts";
import type { AuthUser } from "./types.ts";
import { verifyPassword } from "./passwords.ts";
import {
  giveBack,
  LOGIN_PER_ADDRESS,
  LOGIN_PER_EMAIL,
  LOGIN_PER_PAIR,
  takeAttempt,
} from "./rate_limit.ts";
import { type IssuedSession, rotateRefreshToken, startSession } from "./sessions.ts";
import { findUserByEmail, findUserById, toGoTrueUser, touchSignIn, type UserRow } from "./users.ts";

/** Signs an access token bound to a session, at the session's assurance level. */
export type IssueToken = (
  user: AuthUser,
  options: { sessionId: string; aal?: Aal; amr?: AmrEntry[] },
) => Promise<{ token: string; expiresAt: number }>;

/** GoTrue's AccessTokenResponse. */
export interface SessionResponse {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
}

// Bodies are at most 16 KiB (lib/http/read_body.ts), so the strings need no bound of their own.
const passwordBody = z.object({
  email: z.string().optional(),
  password: z.string().optional(),
});
const refreshBody = z.object({ refresh_token: z.string().optional() });

/**
 * The AccessTokenResponse of a session just started or refreshed for `user`; its user carries
 * the factors (supabase-js reads the next assurance level from them).
 */
export async function sessionResponse(
  sql: Sql,
  user: UserRow,
  options: { issue: IssueToken; session: IssuedSession; method?: string; now: number },
): Promise<SessionResponse> {
  const { session } = options;
  const aal = session.aal ?? "aal1";
  const at = Math.floor(options.now / 1000);
  const first = options.method ?? "password";
  const amr = (aal === "aal2" ? [AAL_METHODS.totp, first] : [first])
    .map((method) => ({ method, timestamp: at }));
  const { token, expiresAt } = await options.issue({ id: user.id, email: user.email }, {
    sessionId: session.sessionId,
    aal,
    amr,
  });
  const factors = (await listFactors(sql, user.id)).map(toGoTrueFactor);
  return {
    access_token: token,
    token_type: "bearer",
    expires_in: ACCESS_TOKEN_TTL_S,
    expires_at: expiresAt,
    refresh_token: session.refreshToken,
    user: toGoTrueUser(user, { factors }),
  };
}

/**
 * The password grant. The attempt is counted per (email, address) pair, per email and per
 * address before the password is checked; past any limit: 429 `over_request_rate_limit`. A
 * success gives the attempt back to the email's count and clears the pair's, so only failures
 * lock a pair or an email; the address's count keeps it.
 */
export async function passwordGrant(
  deps: AppDeps,
  body: unknown,
  options: { clientAddress: string; issue: IssueToken },
): Promise<SessionResponse> {
  const parsed = passwordBody.safeParse(body);
  const email = parsed.success ? parsed.data.email?.trim().toLowerCase() : undefined;
  const password = parsed.success ? parsed.data.password : undefined;
  if (!deps.config.access.passwordLogin) {
    // PASSWORD_LOGIN=false: single sign-on only (GoTrue's answer when email logins are off).
    throw new GoTrueError(422, "email_provider_disabled", "Email logins are disabled");
  }
  if (!email) throw new GoTrueError(400, "validation_failed", "missing email or phone");
  const address = limitSubject(options.clientAddress);
  const attempt = await takeAttempt(deps.kv, [
    { limit: LOGIN_PER_PAIR, subject: `${email}\n${address}` },
    { limit: LOGIN_PER_EMAIL, subject: email },
    { limit: LOGIN_PER_ADDRESS, subject: address },
  ], { clock: deps.clock });
  if (!attempt.allowed) {
    throw new GoTrueError(429, "over_request_rate_limit", "Request rate limit reached", {
      "Retry-After": String(attempt.retryAfterS),
    });
  }
  const user = await findUserByEmail(deps.store, email);
  const ok = await verifyPassword(password ?? "", user?.encrypted_password ?? null);
  if (!user || !ok) throw invalidCredentials();
  await giveBack(deps.kv, attempt, { clear: [LOGIN_PER_PAIR], uncount: [LOGIN_PER_EMAIL] });
  const now = deps.clock.now();
  const session = await startSession(deps.store, user.id, { now });
  const signedIn = await touchSignIn(deps.store, user.id, { now });
  return await sessionResponse(deps.store, signedIn, { issue: options.issue, session, now });
}

/** The refresh_token grant: rotates the token (reuse of a rotated one ends the session). */
export async function refreshGrant(
  deps: AppDeps,
  body: unknown,
  options: { issue: IssueToken },
): Promise<SessionResponse> {
  const parsed = refreshBody.safeParse(body);
  const token = parsed.success ? parsed.data.refresh_token : undefined;
  if (!token || token.length < 12) {
    throw new GoTrueError(400, "validation_failed", "Refresh token is not valid");
  }
  const session = await rotateRefreshToken(deps.store, token, { now: deps.clock.now() });
  const user = await findUserById(deps.store, session.userId);
  if (!user) {
    throw new GoTrueError(
      400,
      "session_not_found",
      "Invalid Refresh Token: No Valid Session Found",
    );
  }
  return await sessionResponse(deps.store, user, {
    issue: options.issue,
    session,
    now: deps.clock.now(),
  });
}
