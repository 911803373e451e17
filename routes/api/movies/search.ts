/** GET /api/movies/search?q=: TMDB's movie search, rows without poster, date or votes dropped. */
import { z } from "zod";
import { MAX_PAGE, pageParam, withWindowHeaders } from "../../../lib/catalog/mod.ts";
import type { Handlers } from "../../../lib/http/env.ts";
import { Problem } from "../../../lib/problem.ts";

/** The longest query accepted (TMDB titles are far shorter; longer is a client bug or abuse). */
export const MAX_QUERY_LENGTH = 200;

const querySchema = z.object({
  q: z.string().trim().min(1).max(MAX_QUERY_LENGTH),
  year: z.string().regex(/^\d{4}$/).transform(Number).optional(),
  page: pageParam.optional(),
});

export const handler: Handlers = {
  GET: (c) =>
    withWindowHeaders(c, async () => {
      const query = querySchema.safeParse(c.req.query());
      if (!query.success) {
        throw new Problem(
          400,
          "invalid_query",
          `q is required: 1 to ${MAX_QUERY_LENGTH} characters after trimming ` +
            `(optional: year as YYYY, page 1-${MAX_PAGE}).`,
        );
      }
      const { q, year, page } = query.data;
      const { value, headers } = await c.get("services").catalog.search(q, {
        year,
        page,
        wait: false,
      });
      return c.json(value, 200, headers);
    }),
};
