/** GET /api/movies/popular?page=: TMDB's popular feed, cached 6 hours per page. */
import { MAX_PAGE, popularQuerySchema } from "@/lib/catalog/mod.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { withWindowHeaders } from "@/lib/http/window_headers.ts";

export const handler: Handlers = {
  GET: (c) =>
    withWindowHeaders(c, async () => {
      const query = parsedOr400(popularQuerySchema, c.req.query(), {
        code: "invalid_query",
        detail: `page must be an integer from 1 to ${MAX_PAGE}.`,
      });
      const { value, headers } = await c.get("services").catalog.popular(query.page);
      return c.json(value, 200, headers);
    }),
};
