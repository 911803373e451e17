/** The `x-admin-token` check of the admin routes (docs/api.md), in constant time. */
import { limitSubject } from "@/lib/identity/auth/limit_subject.ts";
import { ADMIN_TOKEN_PER_ADDRESS, giveBack, takeAttempt } from "@/lib/identity/auth/rate_limit.ts";
import { Problem } from "@/lib/core/problem.ts";
import { timingSafeEqual } from "hono/utils/buffer";
import type { Ctx, Middleware } from "../app_env.ts";
import { clientAddress } from "../client_address.ts";

/**
 * Whether `given` equals `expected`, in constant time: Hono's `timingSafeEqual` compares the two
 * sides' SHA-256 digests, so its time says nothing about the token's content.
 */
export async function adminTokenMatches(
  given: string | undefined,
  expected: string | undefined,
): Promise<boolean> {
  // No configured token means nothing matches; compare anyway so the answer takes as long.
  const same = await timingSafeEqual(given ?? "", expected ?? "");
  return same && given !== undefined && expected !== undefined && expected !== "";
}

/** The 401 of a missing or wrong admin token. */
function adminUnauthorized(): Problem {
  return new Problem(401, "unauthorized", "A valid x-admin-token header is required.");
}

/**
 * Throws 401 unless the request carries the configured ADMIN_TOKEN in `x-admin-token`. After 20
 * wrong tokens from one client address in 15 minutes, every request from it is 429 until the
 * window ends (the right token too, so the answer tells a guesser nothing).
 */
export async function checkAdminToken(c: Ctx): Promise<void> {
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
}

/** The admin routes' middleware: `checkAdminToken`, then the route. */
export function requireAdminToken(): Middleware {
  return async function requireAdminToken(c, next) {
    await checkAdminToken(c);
    await next();
  };
}
