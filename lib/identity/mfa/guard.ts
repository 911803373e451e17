/**
 * The second factor's guard of the `/auth/v1` routes an aal1 session still reaches
 * (docs/identity.md, "Two-factor codes guard the data"): of those, only reading the user record,
 * the code step and sign-out are open to it; changing the user (password, metadata) is GoTrue's
 * 403 `mfa_required` until a code raises the session. A token already at aal2 costs no query.
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { GoTrueError } from "../auth/gotrue_error.ts";
import type { AuthUser } from "../auth/types.ts";
import { CODE_REQUIRED_MESSAGE } from "./code_owed.ts";
import { hasVerifiedFactor } from "./factors.ts";

/** Whether `user`'s token still owes the second factor: aal1, and a verified factor exists. */
export async function owesCode(deps: AppDeps, user: AuthUser): Promise<boolean> {
  if (user.aal === "aal2") return false;
  return await hasVerifiedFactor(deps.store, user.id);
}

/** `PUT /auth/v1/user`: GoTrue's 403 `mfa_required` while the token owes the second factor. */
export async function assertUserChangeAllowed(deps: AppDeps, user: AuthUser): Promise<void> {
  if (await owesCode(deps, user)) throw new GoTrueError(403, "mfa_required", CODE_REQUIRED_MESSAGE);
}
