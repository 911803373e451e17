/**
 * Puts the daily quota's rate-limit headers on every /api/recommend and /api/recommend/quota
 * response, problems included (docs/api.md). Runs before `requireUser`, so a 401
 * carries them too: without a user there is no quota to spend, so Remaining is 0.
 */
import type { Middleware } from "../app_env.ts";
import { DAILY_LIMIT, nextUtcMidnight, quotaHeaders } from "@/lib/recommend/quota.ts";

// Local picks and 👍/👎 spend no quota (docs/recommend.md, "Local picks"): no headers, and no
// KV read for them.
const QUOTA_FREE = new Set(["/api/recommend/local", "/api/recommend/feedback"]);

/** The middleware that sets X-RateLimit-Limit, -Remaining and -Reset after the handler ran. */
export function quotaHeadersMiddleware(): Middleware {
  return async function quotaHeadersMiddleware(c, next) {
    await next();
    if (QUOTA_FREE.has(c.req.path)) return;
    // A cached recommendation answer carries the quota it read beside the set: set once.
    if (c.res.headers.has("X-RateLimit-Limit")) return;
    const user = c.get("user");
    const { clock, log } = c.var.deps;
    try {
      const status = user ? await c.var.services.recommend.quota(user.id) : {
        limit: DAILY_LIMIT,
        used: 0,
        remaining: 0,
        resetAt: nextUtcMidnight(clock.now()),
      };
      for (const [name, value] of Object.entries(quotaHeaders(status))) {
        c.res.headers.set(name, value);
      }
    } catch (error) {
      // The answer itself is sound; a KV hiccup here only costs the headers.
      log({ level: "warn", msg: "quota headers unavailable", error: String(error).slice(0, 200) });
    }
  };
}
