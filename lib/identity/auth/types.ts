/** Identity types: who the bearer of an access token is, and what resolves a token to them. */
import type { PendingSession } from "./pending_session.ts";

/** The user an access token names. */
export interface AuthUser {
  id: string;
  email: string;
  /** The token's assurance level (`aal2` after a second factor); absent means `aal1`. */
  aal?: "aal1" | "aal2";
}

/** A user just signed up: when its confirmation link was mailed, if it was (GoTrue's `confirmation_sent_at`). */
export interface NewUser extends AuthUser {
  confirmationSentAt?: string;
}

/** Resolves access tokens to users; throws a 401 `unauthorized` Problem for any bad token. */
export interface TokenVerifier {
  verifyAccessToken(token: string): Promise<AuthUser>;
  /**
   * Verifies the token but leaves its session's check to the caller: `session` is what must
   * still be found live before anything is answered (null when no session is kept here).
   */
  verifyDeferringSession(
    token: string,
  ): Promise<{ user: AuthUser; session: PendingSession | null }>;
}
