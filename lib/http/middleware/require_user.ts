/** The middleware of protected API routes: resolves the user before any user data is touched. */
import { unauthorized } from "../../auth/unauthorized.ts";
import type { AuthUser } from "../../auth/types.ts";
import type { Ctx, Middleware } from "../app_env.ts";
import { bearerToken } from "../bearer.ts";

/**
 * Reads the Bearer token, verifies it and sets `c.var.user`; otherwise 401, before any body is
 * read. With `readChecksSession`, a GET leaves the session's check to the route's read
 * (`c.var.session`, folded into its statement); a handler that does not settle it still gets
 * it checked, by a query of its own, before the response leaves.
 */
export function requireUser(options: { readChecksSession?: boolean } = {}): Middleware {
  return async function requireUser(c, next) {
    const token = bearerToken(c.req.header("authorization"));
    if (!token) throw unauthorized();
    const auth = c.var.services.auth;
    if (!options.readChecksSession || (c.req.method !== "GET" && c.req.method !== "HEAD")) {
      c.set("user", await auth.verifyAccessToken(token));
      return await next();
    }
    const { user, session } = await auth.verifyDeferringSession(token);
    c.set("user", user);
    if (!session) return await next();
    c.set("session", session);
    await next();
    await session.settleAlone();
  };
}

/** The signed-in user of a route behind `requireUser` (saaskit's `assertSignedIn`); else 401. */
export function assertSignedIn(c: Ctx): AuthUser {
  const user = c.get("user");
  // Only a route that forgot requireUser gets here: refuse rather than act for nobody.
  if (!user) throw unauthorized();
  return user;
}
