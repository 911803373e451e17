/**
 * The second factor's guard of sensitive actions (docs/identity.md): once a user has a verified
 * factor, changing the password, deleting the account and managing tokens and connections need a
 * session raised to `aal2` by a code; otherwise 403 `mfa_required`. A token already at aal2 costs
 * no query.
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { GoTrueError } from "../auth/gotrue_error.ts";
import type { AuthUser } from "../auth/types.ts";
import { Problem } from "@/lib/core/problem.ts";
import { hasVerifiedFactor } from "./factors.ts";

const MESSAGE = "This needs your two-factor code: verify it first, then try again.";

/** Whether `user`'s token may act on sensitive things: aal2, or no verified factor at all. */
async function meetsAal2(deps: AppDeps, user: AuthUser): Promise<boolean> {
  if (user.aal === "aal2") return true;
  return !(await hasVerifiedFactor(deps.store, user.id));
}

/** Throws the 403 `mfa_required` problem unless `meetsAal2`. */
export async function assertAal2(deps: AppDeps, user: AuthUser): Promise<void> {
  if (!(await meetsAal2(deps, user))) throw new Problem(403, "mfa_required", MESSAGE);
}

/** `PUT /auth/v1/user` with a password: GoTrue's 403 `mfa_required` unless `meetsAal2`. */
export async function assertPasswordChangeAllowed(
  deps: AppDeps,
  user: AuthUser,
  body: unknown,
): Promise<void> {
  const setsPassword = typeof body === "object" && body !== null && "password" in body;
  if (setsPassword && !(await meetsAal2(deps, user))) {
    throw new GoTrueError(403, "mfa_required", MESSAGE);
  }
}
