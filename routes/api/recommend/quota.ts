/** GET /api/recommend/quota: the user's daily generation quota. */
import type { Handlers } from "../../../lib/http/app_env.ts";
import { assertSignedIn } from "../../../lib/http/middleware/require_user.ts";

export const handler: Handlers = {
  async GET(c) {
    const status = await c.var.services.recommend.quota(assertSignedIn(c).id);
    return c.json({
      limit: status.limit,
      used: status.used,
      remaining: status.remaining,
      resetAt: status.resetAt.toISOString(),
    });
  },
};
