/**
 * The website's own /api/trakt routes (docs/trakt.md, "Sign-in"): a signed-in session only, with
 * its second factor when it has one; a personal access token is 403 `insufficient_scope` (it
 * cannot hand out sign-ins to other apps).
 */
import { isPersonalToken } from "@/lib/identity/personal_tokens/mod.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { Middleware } from "../app_env.ts";
import { bearerToken } from "../bearer.ts";
import { requireUser } from "./require_user.ts";

const refuseTokens: Middleware = (c, next) => {
  const token = bearerToken(c.req.header("authorization"));
  if (token && isPersonalToken(token)) {
    throw new Problem(
      403,
      "insufficient_scope",
      "A personal access token cannot approve or manage app sign-ins; sign in instead.",
      { headers: { "WWW-Authenticate": 'Bearer realm="api", error="insufficient_scope"' } },
    );
  }
  return next();
};

/** The middleware of a route only a signed-in session may call. */
export function sessionOnly(): Middleware[] {
  return [refuseTokens, requireUser({ personalTokens: false })];
}
