/** The middleware of protected API routes: resolves the user before any user data is touched. */
import type { Middleware } from "../http/app_env.ts";
import { unauthorized } from "./access_token.ts";

const BEARER = /^Bearer\s+([A-Za-z0-9\-_.~+/]+=*)\s*$/i;

/**
 * Reads the Bearer token, verifies it and sets `c.var.user`; otherwise 401, before any body is
 * read. With `readChecksSession`, a GET leaves the session's check to the route's read
 * (`c.var.session`, folded into its statement); a handler that does not settle it still gets
 * it checked, by a query of its own, before the response leaves.
 */
export function requireUser(options: { readChecksSession?: boolean } = {}): Middleware {
  return async function requireUser(c, next) {
    const header = c.req.header("authorization");
    const match = header ? BEARER.exec(header) : null;
    if (!match) throw unauthorized();
    const auth = c.var.services.auth;
    if (!options.readChecksSession || (c.req.method !== "GET" && c.req.method !== "HEAD")) {
      c.set("user", await auth.verifyAccessToken(match[1]));
      return await next();
    }
    const { user, session } = await auth.verifyDeferringSession(match[1]);
    c.set("user", user);
    if (!session) return await next();
    c.set("session", session);
    await next();
    await session.settleAlone();
  };
}
