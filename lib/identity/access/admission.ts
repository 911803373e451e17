/**
 * Who may create an account, by SIGNUP (docs/oidc.md): `open` lets anyone in, `invite` only the
 * holder of a valid unused invite (bound to their email when the invite names one), `closed`
 * nobody. Both ways in, the signup route and a first OIDC sign-in, pass through here.
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { Problem } from "@/lib/core/problem.ts";
import { claimInvite, settleInvite } from "./invites.ts";

/** 403 `signup_disabled`: the instance takes no new accounts. */
function signupDisabled(): Problem {
  return new Problem(403, "signup_disabled", "This instance is not taking new accounts.");
}

/**
 * 403 `signup_disabled` when SIGNUP=closed, or when PASSWORD_LOGIN=false (accounts then come
 * from the identity provider only): checked before a body is read.
 */
export function refuseWhenClosed(deps: AppDeps): void {
  const { signup, passwordLogin } = deps.config.access;
  if (signup === "closed") throw signupDisabled();
  if (!passwordLogin) {
    throw new Problem(
      403,
      "signup_disabled",
      "Password accounts are off here: sign in with the site's identity provider instead.",
    );
  }
}

/**
 * The checks that need no store: `closed` is 403 `signup_disabled`; `invite` without a code is
 * 400 `invite_required`.
 */
export function checkSignupMode(deps: AppDeps, inviteCode: string | null | undefined): void {
  const mode = deps.config.access.signup;
  if (mode === "closed") throw signupDisabled();
  if (mode === "invite" && !inviteCode) {
    throw new Problem(400, "invite_required", "Signing up here needs an invite code.");
  }
}

/**
 * Creates the account through `create` once the mode allows it. Under `invite` the invite is
 * claimed first (400 `invite_invalid` when it is unknown, used, expired or for another email),
 * tied to the new account after, and given back if the account could not be made. An email
 * the identity provider did not verify (`emailVerified: false`) never satisfies an invite made
 * for one email; a password signup's email is taken as typed (the account stays unconfirmed).
 */
export async function admitNewAccount<T extends { id: string }>(
  deps: AppDeps,
  request: { email: string; inviteCode?: string | null; emailVerified?: boolean },
  create: () => Promise<T>,
): Promise<T> {
  checkSignupMode(deps, request.inviteCode);
  const code = request.inviteCode;
  if (deps.config.access.signup !== "invite" || !code) return await create();
  const claimed = await claimInvite(deps.store, {
    code,
    email: request.email,
    emailVerified: request.emailVerified,
  }, { now: deps.clock.now() });
  if (!claimed) {
    throw new Problem(
      400,
      "invite_invalid",
      "This invite code is not valid: it may be used, expired, or meant for another email.",
    );
  }
  let user: T;
  try {
    user = await create();
  } catch (error) {
    await settleInvite(deps.store, code, null);
    throw error;
  }
  await settleInvite(deps.store, code, user.id);
  return user;
}
