/** GET /api/recommend: the user's recommendations (cached, refreshed, or new). */
import type { Handlers } from "../../../lib/http/app_env.ts";
import { assertSignedIn } from "../../../lib/http/middleware/require_user.ts";
import { Problem } from "../../../lib/problem.ts";
import { type RecommendMode, recommendQuerySchema } from "../../../lib/recommend/mod.ts";

export const handler: Handlers = {
  async GET(c) {
    const query = recommendQuerySchema.safeParse(c.req.query());
    if (!query.success) {
      throw new Problem(400, "invalid_query", "refresh and getNew take true or 1 (or false or 0).");
    }
    const mode: RecommendMode = query.data.getNew
      ? "getNew"
      : query.data.refresh
      ? "refresh"
      : "default";
    return c.json(await c.var.services.recommend.recommend(assertSignedIn(c).id, { mode }));
  },
};
