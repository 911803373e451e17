/** The `x-admin-token` check of the admin routes (contract section 6), in constant time. */
import { clientAddress, limitSubject } from "../auth/client_address.ts";
import { ADMIN_TOKEN_PER_ADDRESS, giveBack, takeAttempt } from "../auth/rate_limit.ts";
import type { Middleware } from "../http/env.ts";
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

/**
 * Lets the request through only with the configured ADMIN_TOKEN in `x-admin-token`; else 401.
 * After 20 wrong tokens from one client address in 15 minutes, every request from it is 429
 * until the window ends (the right token too, so the answer tells a guesser nothing).
 */
export function requireAdminToken(): Middleware {
  return async function requireAdminToken(c, next) {
    const { kv, clock, config } = c.var.deps;
    const attempt = await takeAttempt(kv, [{
      limit: ADMIN_TOKEN_PER_ADDRESS,
      subject: limitSubject(clientAddress(c)),
    }], { clock });
    if (!attempt.allowed) {
      throw new Problem(429, "rate_limited", "Too many wrong admin tokens; try later.", {
        headers: { "Retry-After": String(attempt.retryAfterS) },
      });
    }
    const ok = await adminTokenMatches(c.req.header("x-admin-token"), config.adminToken);
    if (!ok) throw adminUnauthorized();
    // Only wrong tokens count.
    await giveBack(kv, attempt, { uncount: [ADMIN_TOKEN_PER_ADDRESS] });
    await next();
  };
}
