/**
 * `POST /auth/v1/token` of the built-in provider: the password and refresh_token grants, each
 * answering GoTrue's AccessTokenResponse (notes, section 2) or one of its errors.
 */
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { ACCESS_TOKEN_TTL_S } from "./access_token.ts";
import { limitSubject } from "./limit_subject.ts";
import { GoTrueError, invalidCredentials } from "./gotrue_error.ts";
import type { AuthUser } from "./types.ts";
import { verifyPassword } from "./passwords.ts";
import { LOGIN_PER_ADDRESS, LOGIN_PER_EMAIL, takeAttempt } from "./rate_limit.ts";
import { type IssuedSession, rotateRefreshToken, startSession } from "./sessions.ts";
import { findUserByEmail, findUserById, toGoTrueUser, touchSignIn, type UserRow } from "./users.ts";

/** Signs an access token bound to a session. */
export type IssueToken = (
  user: AuthUser,
  options: { sessionId: string },
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

async function respond(
  issue: IssueToken,
  user: UserRow,
  session: IssuedSession,
): Promise<SessionResponse> {
  const { token, expiresAt } = await issue({ id: user.id, email: user.email }, {
    sessionId: session.sessionId,
  });
  return {
    access_token: token,
    token_type: "bearer",
    expires_in: ACCESS_TOKEN_TTL_S,
    expires_at: expiresAt,
    refresh_token: session.refreshToken,
    user: toGoTrueUser(user),
  };
}

/**
 * The password grant. Attempts are counted per email and per client address before the
 * password is checked; past either limit: 429 `over_request_rate_limit`.
 */
export async function passwordGrant(
  deps: AppDeps,
  body: unknown,
  options: { clientAddress: string; issue: IssueToken },
): Promise<SessionResponse> {
  const parsed = passwordBody.safeParse(body);
  const email = parsed.success ? parsed.data.email?.trim().toLowerCase() : undefined;
  const password = parsed.success ? parsed.data.password : undefined;
  if (!email) throw new GoTrueError(400, "validation_failed", "missing email or phone");
  const attempt = await takeAttempt(deps.kv, [
    { limit: LOGIN_PER_EMAIL, subject: email },
    { limit: LOGIN_PER_ADDRESS, subject: limitSubject(options.clientAddress) },
  ], { clock: deps.clock });
  if (!attempt.allowed) {
    throw new GoTrueError(429, "over_request_rate_limit", "Request rate limit reached", {
      "Retry-After": String(attempt.retryAfterS),
    });
  }
  const user = await findUserByEmail(deps.store, email);
  const ok = await verifyPassword(password ?? "", user?.encrypted_password ?? null);
  if (!user || !ok) throw invalidCredentials();
  const now = deps.clock.now();
  const session = await startSession(deps.store, user.id, { now });
  const signedIn = await touchSignIn(deps.store, user.id, { now });
  return await respond(options.issue, signedIn, session);
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
  return await respond(options.issue, user, session);
}
