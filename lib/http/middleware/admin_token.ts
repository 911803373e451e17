/** The `x-admin-token` check of the admin routes (contract section 6), in constant time. */
import { adminTokenMatches } from "../../import/admin_token.ts";
import { Problem } from "../../problem.ts";
import type { Middleware } from "../app_env.ts";

/** The 401 of a missing or wrong admin token. */
export function adminUnauthorized(): Problem {
  return new Problem(401, "unauthorized", "A valid x-admin-token header is required.");
}

/** Lets the request through only with the configured ADMIN_TOKEN in `x-admin-token`; else 401. */
export function requireAdminToken(): Middleware {
  return async function requireAdminToken(c, next) {
    const ok = await adminTokenMatches(c.req.header("x-admin-token"), c.var.deps.config.adminToken);
    if (!ok) throw adminUnauthorized();
    await next();
  };
}
