/** The middleware of protected API routes: resolves the user before any user data is touched. */
import type { Middleware } from "../http/env.ts";
import { unauthorized } from "./access_token.ts";

const BEARER = /^Bearer\s+([A-Za-z0-9\-_.~+/]+=*)\s*$/i;

/** Reads the Bearer token, verifies it and sets `c.var.user`; otherwise 401. */
export function requireUser(): Middleware {
  return async function requireUser(c, next) {
    const header = c.req.header("authorization");
    const match = header ? BEARER.exec(header) : null;
    if (!match) throw unauthorized();
    const user = await c.var.services.auth.verifyAccessToken(match[1]);
    c.set("user", user);
    await next();
  };
}
