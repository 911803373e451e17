/** GET /api/movies/search?q=: TMDB's movie search, rows without poster, date or votes dropped. */
import { MAX_PAGE, MAX_QUERY_LENGTH, searchQuerySchema } from "@/lib/catalog/mod.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { withWindowHeaders } from "@/lib/http/window_headers.ts";

export const handler: Handlers = {
  GET: (c) =>
    withWindowHeaders(c, async () => {
      const query = parsedOr400(searchQuerySchema, c.req.query(), {
        code: "invalid_query",
        detail: `q is required: 1 to ${MAX_QUERY_LENGTH} characters after trimming ` +
          `(optional: year as YYYY, page 1-${MAX_PAGE}).`,
      });
      const { q, year, page, include } = query;
      const { value, headers } = await c.get("services").catalog.search(q, {
        year,
        page,
        wait: false,
      });
      // Exactly `{results}` (docs/catalog.md); the page count is the website's. The
      // rows it drops only when asked for (the website's search lists them last).
      if (include === "unlisted") {
        return c.json({ results: value.results, unlisted: value.unlisted }, 200, headers);
      }
      return c.json({ results: value.results }, 200, headers);
    }),
};
