/** GET /api/movies/popular?page=: TMDB's popular feed, cached 6 hours per page. */
import { MAX_PAGE, popularQuerySchema } from "../../../lib/catalog/mod.ts";
import type { Handlers } from "../../../lib/http/app_env.ts";
import { withWindowHeaders } from "../../../lib/http/window_headers.ts";
import { Problem } from "../../../lib/problem.ts";

export const handler: Handlers = {
  GET: (c) =>
    withWindowHeaders(c, async () => {
      const query = popularQuerySchema.safeParse(c.req.query());
      if (!query.success) {
        throw new Problem(400, "invalid_query", `page must be an integer from 1 to ${MAX_PAGE}.`);
      }
      const { value, headers } = await c.get("services").catalog.popular(query.data.page);
      return c.json(value, 200, headers);
    }),
};
