/** GET /api/movies/popular?page=: TMDB's popular feed, cached 6 hours per page. */
import { z } from "zod";
import { MAX_PAGE, pageParam, withWindowHeaders } from "../../../lib/catalog/mod.ts";
import type { Handlers } from "../../../lib/http/env.ts";
import { Problem } from "../../../lib/problem.ts";

const querySchema = z.object({
  page: pageParam.optional().default(1),
});

export const handler: Handlers = {
  GET: (c) =>
    withWindowHeaders(c, async () => {
      const query = querySchema.safeParse(c.req.query());
      if (!query.success) {
        throw new Problem(400, "invalid_query", `page must be an integer from 1 to ${MAX_PAGE}.`);
      }
      const { value, headers } = await c.get("services").catalog.popular(query.data.page);
      return c.json(value, 200, headers);
    }),
};
