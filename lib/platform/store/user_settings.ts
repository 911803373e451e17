/** The per-transaction settings both engines apply before running a user's statements. */

/**
 * The claims set for a user's transaction, shaped as Supabase's PostgREST sets them. `aal2`: the
 * app runs a user's statements only after its own guard let the request through (an aal2 token,
 * a personal token, a webhook secret, or a user without a verified factor; docs/identity.md), so
 * the restrictive aal2 policies pass them.
 */
export function userClaims(userId: string): string {
  return JSON.stringify({ sub: userId, role: "authenticated", aud: "authenticated", aal: "aal2" });
}

/**
 * Sets the user's claims and switches to role `authenticated` for the rest of the transaction,
 * in one round trip (`set_config('role', ..., true)` is `set local role`, as PostgREST does it).
 */
export const USER_SETTINGS_SQL =
  "select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)";
