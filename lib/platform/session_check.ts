/**
 * What a read needs of the token's session to check it inside its own statement (docs/identity.md,
 * "The check inside a list read"): the list reads (lib/library/entries) and the first read of
 * GET /api/recommend (lib/recommend/cached_read.ts) take it, and neither imports auth; the session
 * the auth middleware left on the request (lib/identity/auth/pending_session.ts) is one, handed in
 * by the route. It lives here, below identity and the features, so each of them names this one.
 */

/** A session still to be found live, checked inside the read's own statement. */
export interface SessionCheck {
  /** The session the token names; null when it names none (then only its user must exist). */
  readonly sessionId: string | null;
  /**
   * The SQL condition that the token is still good, reading the user id at `user` and, when the
   * token names a session, its id at `session` (null otherwise).
   */
  liveSql(user: `$${number}`, session: `$${number}` | null): string;
  /**
   * Records what the read's statement found (the value of `liveSql`): false is a 401, null (the
   * session is live but still owes its second factor) a 403 `mfa_required`.
   */
  settle(live: boolean | null): void;
  /** Checks with a query of its own, unless a statement already did. */
  settleAlone(): Promise<void>;
}
