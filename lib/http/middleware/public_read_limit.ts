/**
 * The limit of the reads anyone may make without an account (a shared list, a public profile,
 * their pages): 60 per minute per client address, in a KV window shared by every instance.
 */
import { takeAttempt, type WindowLimit } from "@/lib/identity/auth/rate_limit.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { Middleware } from "../app_env.ts";
import { clientAddress } from "../client_address.ts";

/** Public reads per client address per minute. */
const PUBLIC_READS: WindowLimit = { name: "public_read", limit: 60, windowMs: 60_000 };

/** Counts the request against its address's window; 429 `rate_limited` once it is full. */
export function publicReadLimit(): Middleware {
  return async function publicReadLimit(c, next) {
    const { kv, clock } = c.var.deps;
    const attempt = await takeAttempt(kv, [{ limit: PUBLIC_READS, subject: clientAddress(c) }], {
      clock,
    });
    if (!attempt.allowed) {
      throw new Problem(
        429,
        "rate_limited",
        `At most ${PUBLIC_READS.limit} public reads a minute from one address; try again later.`,
        { headers: { "Retry-After": String(attempt.retryAfterS) } },
      );
    }
    await next();
  };
}
