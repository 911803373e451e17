/** GET /api/movies/popular?page=: TMDB's popular feed, cached 6 hours per page. */
import { z } from "zod";
import { catalogRateLimitHeaders, MAX_PAGE } from "../../../lib/catalog/mod.ts";
import type { Handlers } from "../../../lib/http/env.ts";
import { Problem } from "../../../lib/problem.ts";

const querySchema = z.object({
  page: z.string().regex(/^\d{1,3}$/).transform(Number)
    .pipe(z.number().int().min(1).max(MAX_PAGE)).optional().default(1),
});

/** Window headers on every answer, problems included. */
export const middleware = [catalogRateLimitHeaders()];

export const handler: Handlers = {
  async GET(c) {
    const query = querySchema.safeParse(c.req.query());
    if (!query.success) {
      throw new Problem(400, "invalid_query", `page must be an integer from 1 to ${MAX_PAGE}.`);
    }
    const { value, headers } = await c.var.services.catalog.popular(query.data.page);
    return c.json(value, 200, headers);
  },
};
