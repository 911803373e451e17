/** The `x-admin-token` check of the admin routes (contract section 6), in constant time. */
import type { Middleware } from "../http/app_env.ts";
import { Problem } from "../problem.ts";

const encoder = new TextEncoder();

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/**
 * Whether `given` equals `expected`. Both sides are hashed first, so the comparison runs over
 * two equal-length digests and its time says nothing about the token's length or content.
 */
export async function adminTokenMatches(
  given: string | undefined,
  expected: string | undefined,
): Promise<boolean> {
  // No configured token means nothing matches; hash anyway so the answer takes as long.
  const [a, b] = await Promise.all([digest(given ?? ""), digest(expected ?? "")]);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0 && given !== undefined && expected !== undefined && expected !== "";
}

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
