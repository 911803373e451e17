/**
 * The built-in identity provider: users in auth.users, ES256 access tokens bound to sessions,
 * and the GoTrue endpoints supabase-js calls (`/token`, `/user`, `/logout`, `/recover`,
 * `/verify`).
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { Problem } from "@/lib/core/problem.ts";
import { type VerifiedToken, verifyAccessToken } from "./access_token.ts";
import { GoTrueError } from "./gotrue_error.ts";
import { type IssueToken, passwordGrant, refreshGrant, type SessionResponse } from "./grants.ts";
import { smtpMailer } from "@/lib/platform/mail/mod.ts";
import { requestPasswordReset, verifyRecovery } from "./password_reset.ts";
import { confirmByLink, sendConfirmation, verifySignup } from "./signup_confirmation.ts";
import { updateUser } from "./update_user.ts";
import type { AuthUser, NewUser } from "./types.ts";
import { PendingSession, sessionEnded } from "./pending_session.ts";
import { hashPassword } from "./passwords.ts";
import { endSessions, type LogoutScope, sessionState } from "./sessions.ts";
import type { SigningKey } from "./signing_key.ts";
import { verifiedTokens } from "./verified_tokens.ts";
import { createMfaService, type MfaService } from "../mfa/service.ts";
import { createOidcService, type OidcService } from "../oidc/service.ts";
import { listIdentities } from "../oidc/identities.ts";
import { listFactors, toGoTrueFactor } from "../mfa/factors.ts";
import { assertUserChangeAllowed } from "../mfa/guard.ts";
import { findUserById, insertUser, isUniqueViolation, toGoTrueUser, UUID } from "./users.ts";

/** The built-in provider's operations. */
export interface BuiltinProvider {
  /** Resolves a token of a live session to its user; otherwise a 401 Problem. */
  verify(token: string): Promise<AuthUser>;
  /** Resolves a token to its user, its session's check left to the caller. */
  verifyDeferringSession(token: string): Promise<{ user: AuthUser; session: PendingSession }>;
  /** `POST /auth/v1/token?grant_type=...`. */
  token(
    grantType: string | undefined,
    body: unknown,
    options: { clientAddress: string },
  ): Promise<SessionResponse>;
  /** `GET /auth/v1/user`: the User object of the bearer's access token. */
  user(token: string): Promise<Record<string, unknown>>;
  /** `PUT /auth/v1/user`: a new password (other sessions end) or metadata; the User object. */
  updateUser(token: string, body: unknown): Promise<Record<string, unknown>>;
  /** `POST /auth/v1/recover`: mails a reset link when the email has an account; never tells. */
  recover(body: unknown, options: { clientAddress: string }): Promise<void>;
  /**
   * `POST /auth/v1/verify` with `type=recovery` or `type=signup`: spends the link's token (a
   * signup's confirms the address) and signs the user in.
   */
  verifyOtp(params: unknown): Promise<SessionResponse>;
  /** `GET /auth/v1/verify?type=signup` (the mailed link): confirms the address; no session. */
  confirmSignup(params: unknown): Promise<boolean>;
  /** `POST /auth/v1/logout?scope=...`: ends the session(s) of the bearer's access token. */
  logout(token: string, options: { scope?: string }): Promise<void>;
  /** The signing key of the access tokens (loaded once), whose public half the JWKS serves. */
  signingKey(): Promise<SigningKey>;
  /** The verified claims of a live session's token (GoTrue's 403s otherwise). */
  claims(token: string): Promise<VerifiedToken>;
  /** `/auth/v1/factors`: enrol, challenge, verify and unenroll second factors. */
  mfa: MfaService;
  /** `/auth/v1/authorize` and `/callback`: sign-in with the instance's OIDC provider. */
  oidc: OidcService;
  /**
   * `GET /auth/v1/user/identities/authorize`: where the bearer's browser goes to link the OIDC
   * provider to their account, and the value of the cookie that binds the link to that browser;
   * a session owing its second factor is 403 `mfa_required`.
   */
  linkIdentity(
    token: string,
    query: Record<string, string | undefined>,
  ): Promise<{ url: string; binding: string }>;
  /**
   * Creates a user with a bcrypt hash, its address unconfirmed, and mails the confirmation link
   * when SMTP is set (then `confirmationSentAt` says when); an existing email is 409
   * `email_exists`.
   */
  createUser(email: string, password: string): Promise<NewUser>;
}

const userNotFound = () =>
  new GoTrueError(403, "user_not_found", "User from sub claim in JWT does not exist");

/** Builds the built-in provider around its signing key and issuer. */
export function createBuiltinProvider(
  deps: AppDeps,
  options: { signingKey: () => Promise<SigningKey>; issuer: string; issue: IssueToken },
): BuiltinProvider {
  const { store, clock } = deps;
  const memo = verifiedTokens(clock);
  const smtp = deps.config.smtp;
  const mailer = smtp ? smtpMailer(smtp, { from: deps.config.mailFrom }) : undefined;
  const oidc = createOidcService(deps, { issue: options.issue });

  async function verified(token: string): Promise<VerifiedToken> {
    const known = memo.get(token);
    if (known) return known;
    const claims = await verifyAccessToken((await options.signingKey()).publicKey, token, {
      issuer: options.issuer,
      clock,
    });
    memo.set(token, claims);
    return claims;
  }

  // The GoTrue routes' own verification of the bearer: GoTrue's codes, not problems.
  async function bearer(token: string): Promise<VerifiedToken> {
    try {
      return await verified(token);
    } catch (error) {
      if (!(error instanceof Problem) || error.status !== 401) throw error;
      throw new GoTrueError(
        403,
        "bad_jwt",
        `invalid JWT: unable to parse or verify signature, ${error.message}`,
      );
    }
  }

  // GoTrue's requireAuthentication: the bearer's user and session must still exist (403).
  async function liveBearer(token: string): Promise<VerifiedToken> {
    const claims = await bearer(token);
    // These are the routes an aal1 session still reaches (the code step, the user, sign-out).
    const state = await sessionState(store, claims.id, { sessionId: claims.sessionId });
    if (state === "session_not_found") {
      throw new GoTrueError(
        403,
        "session_not_found",
        "Session from session_id claim in JWT does not exist",
      );
    }
    if (state === "user_not_found") throw userNotFound();
    return claims;
  }

  // The token's user, and its session still to be checked (by a caller's statement or its own).
  async function deferringSession(token: string) {
    const { id, email, aal, sessionId = null } = await verified(token);
    // Ids a statement could not cast to uuid would be a 500 there, not the 401 they are.
    if (!UUID.test(id) || (sessionId !== null && !UUID.test(sessionId))) throw sessionEnded();
    // Without a second factor in the token, a user with a verified factor owes the code step.
    const aal1 = aal !== "aal2";
    const session = new PendingSession(
      sessionId,
      () => sessionState(store, id, { sessionId: sessionId ?? undefined, aal1 }),
      { aal1 },
    );
    return { user: { id, email, aal }, session };
  }

  return {
    async verify(token) {
      const { user, session } = await deferringSession(token);
      await session.settleAlone();
      return user;
    },

    verifyDeferringSession: deferringSession,

    signingKey: options.signingKey,

    claims: liveBearer,

    mfa: createMfaService(deps, { issue: options.issue }),

    oidc,

    async linkIdentity(token, query) {
      const claims = await liveBearer(token);
      // A new way to sign in is a change of the user, as a new password is.
      await assertUserChangeAllowed(deps, claims);
      return await oidc.linkAuthorize({ id: claims.id, sessionId: claims.sessionId }, query);
    },

    async token(grantType, body, { clientAddress }) {
      if (grantType === "password") {
        return await passwordGrant(deps, body, { clientAddress, issue: options.issue });
      }
      if (grantType === "pkce") return await oidc.exchange(body);
      if (grantType === "refresh_token") {
        return await refreshGrant(deps, body, { issue: options.issue });
      }
      throw new GoTrueError(400, "invalid_credentials", "unsupported_grant_type");
    },

    async user(token) {
      const claims = await liveBearer(token);
      const row = await findUserById(store, claims.id);
      if (!row) throw userNotFound();
      const factors = (await listFactors(store, row.id)).map(toGoTrueFactor);
      // As GoTrue's user: every identity, the identity provider's linked ones included.
      return toGoTrueUser(row, { factors, identities: await listIdentities(store, row.id) });
    },

    async updateUser(token, body) {
      const claims = await liveBearer(token);
      await assertUserChangeAllowed(deps, claims);
      const row = await updateUser(deps, claims, body);
      const factors = (await listFactors(store, row.id)).map(toGoTrueFactor);
      return toGoTrueUser(row, { factors });
    },

    recover(body, { clientAddress }) {
      // Throws for a malformed email; otherwise the work runs after the answer.
      return Promise.resolve().then(() =>
        requestPasswordReset(deps, body, { clientAddress, mailer })
      );
    },

    async verifyOtp(params) {
      const type = (params as { type?: unknown } | null)?.type;
      if (type === "signup") return await verifySignup(deps, params, { issue: options.issue });
      return await verifyRecovery(deps, params, { issue: options.issue });
    },

    confirmSignup: (params) => confirmByLink(deps, params),

    async logout(token, { scope }) {
      // An ended session's token must not sign the user out of the sessions still live.
      const claims = await liveBearer(token);
      const chosen = scope ?? "global";
      if (chosen !== "global" && chosen !== "local" && chosen !== "others") {
        throw new GoTrueError(400, "validation_failed", "Unsupported logout scope");
      }
      await endSessions(store, claims.id, {
        scope: chosen as LogoutScope,
        sessionId: claims.sessionId,
      });
    },

    async createUser(email, password) {
      const passwordHash = await hashPassword(password);
      let user: AuthUser;
      try {
        user = await insertUser(store, { email, passwordHash }, { now: clock.now() });
      } catch (error) {
        // Two signups of one email at once: the unique index lets one through.
        if (isUniqueViolation(error)) {
          throw new Problem(409, "email_exists", "An account with this email already exists.");
        }
        throw error;
      }
      const sentAt = await sendConfirmation(deps, user, mailer);
      return sentAt ? { ...user, confirmationSentAt: sentAt } : user;
    },
  };
}
