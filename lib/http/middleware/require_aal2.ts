/**
 * The middleware of sensitive /api routes (account deletion, personal tokens, connections):
 * after `requireUser`, a user with a verified second factor must present an `aal2` token, else
 * 403 `mfa_required` (lib/identity/mfa/guard.ts).
 */
import { assertAal2 } from "@/lib/identity/mfa/guard.ts";
import type { Middleware } from "../app_env.ts";
import { withUser } from "./require_user.ts";

/** Refuses an aal1 token of a user who has a verified factor; put it after `requireUser()`. */
export function requireAal2(): Middleware {
  return withUser(async function requireAal2(c, next) {
    await assertAal2(c.var.deps, c.var.user);
    await next();
  });
}
