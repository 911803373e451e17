/** GET /api/recommend/quota: the user's daily generation quota. */
import { requireUser } from "../../../lib/auth/require_user.ts";
import type { Handlers } from "../../../lib/http/app_env.ts";
import { quotaHeadersMiddleware } from "../../../lib/recommend/mod.ts";

/** Quota headers first, so they reach a 401 too. */
export const middleware = [quotaHeadersMiddleware(), requireUser()];

export const handler: Handlers = {
  async GET(c) {
    const status = await c.var.services.recommend.quota(c.var.user!.id);
    return c.json({
      limit: status.limit,
      used: status.used,
      remaining: status.remaining,
      resetAt: status.resetAt.toISOString(),
    });
  },
};
