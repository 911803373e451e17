/** GET /api/recommend: the user's recommendations (cached, refreshed, or new). */
import type { Handlers } from "../../../lib/http/app_env.ts";
import { parsedOr400 } from "../../../lib/http/validate.ts";
import { assertSignedIn } from "../../../lib/http/middleware/require_user.ts";
import { type RecommendMode, recommendQuerySchema } from "../../../lib/recommend/mod.ts";

export const handler: Handlers = {
  async GET(c) {
    const query = parsedOr400(recommendQuerySchema, c.req.query(), {
      code: "invalid_query",
      detail: "refresh and getNew take true or 1 (or false or 0).",
    });
    const mode: RecommendMode = query.getNew ? "getNew" : query.refresh ? "refresh" : "default";
    return c.json(await c.var.services.recommend.recommend(assertSignedIn(c).id, { mode }));
  },
};
