/** GET /api/movies/:id/similar?limit=: "more like this" from the stored movies (no TMDB call). */
import { catalogIdParam } from "@/lib/catalog/mod.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { similarQuerySchema } from "@/lib/recommend/local/query.ts";

export const handler: Handlers = {
  async GET(c) {
    const id = parsedOr400(catalogIdParam, c.req.param("id"), {
      code: "invalid_catalog_id",
      detail: "The id must be a positive integer catalog id (at most 2147483647).",
    });
    const { limit } = parsedOr400(similarQuerySchema, c.req.query(), {
      code: "invalid_query",
      detail: "limit must be an integer from 1 to 24.",
    });
    return c.json({ movies: await c.var.services.localRecommend.similar(id, { limit }) });
  },
};
