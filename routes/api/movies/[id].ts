/** GET /api/movies/:id: a movie's details, from the caches when fresh, else from TMDB. */
import { catalogIdParam } from "../../../lib/catalog/mod.ts";
import type { Handlers } from "../../../lib/http/app_env.ts";
import { catalogJson } from "../../../lib/http/catalog_json.ts";
import { withWindowHeaders } from "../../../lib/http/window_headers.ts";
import { Problem } from "../../../lib/problem.ts";

export const handler: Handlers = {
  GET(c) {
    const id = catalogIdParam.safeParse(c.req.param("id"));
    // A detail hot in this instance is answered at once, without a promise to wait on.
    const hot = id.success ? c.get("services").catalog.hotMovie(id.data) : undefined;
    if (hot) return catalogJson(hot.value, hot.headers);
    return withWindowHeaders(c, async () => {
      if (!id.success) {
        throw new Problem(
          400,
          "invalid_catalog_id",
          "The id must be a positive integer catalog id (at most 2147483647).",
        );
      }
      const { value, headers } = await c.get("services").catalog.movie(id.data);
      return catalogJson(value, headers);
    });
  },
};
