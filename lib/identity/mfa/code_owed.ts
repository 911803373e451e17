/**
 * A session that still owes its second factor (docs/identity.md, "Two-factor codes guard the
 * data"): an `aal1` token of a user with a verified factor reaches only the code step, its own
 * user record and sign-out; everything else that needs a signed-in user is 403 `mfa_required`.
 */
import { Problem } from "@/lib/core/problem.ts";

/** What every refusal of an aal1 token of a user with a verified factor says. */
export const CODE_REQUIRED_MESSAGE =
  "This needs your two-factor code: verify it first, then try again.";

/** The 403 `mfa_required` problem of the API and the pages. */
export function codeRequired(): Problem {
  return new Problem(403, "mfa_required", CODE_REQUIRED_MESSAGE);
}

/** The SQL condition that the user (parameter `user`) has a verified factor. */
export function verifiedFactorSql(user: string): string {
  return `exists (select 1 from auth.mfa_factors
    where user_id = ${user}::uuid and status::text = 'verified')`;
}
