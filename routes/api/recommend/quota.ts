/** GET /api/recommend/quota: the user's daily generation quota. */
import { signedIn } from "@/lib/http/middleware/require_user.ts";

export const handler = signedIn({
  async GET(c) {
    const status = await c.var.services.recommend.quota(c.var.user.id);
    return c.json({
      limit: status.limit,
      used: status.used,
      remaining: status.remaining,
      resetAt: status.resetAt.toISOString(),
    });
  },
});
