/** GET /api/movies/:id: a movie's details, from the caches when fresh, else from TMDB. */
import { catalogIdParam, withWindowHeaders } from "../../../lib/catalog/mod.ts";
import { catalogJson } from "../../../lib/catalog/json_response.ts";
import type { Handlers } from "../../../lib/http/env.ts";
import { Problem } from "../../../lib/problem.ts";

export const handler: Handlers = {
  GET: (c) =>
    withWindowHeaders(c, async () => {
      const id = catalogIdParam.safeParse(c.req.param("id"));
      if (!id.success) {
        throw new Problem(
          400,
          "invalid_catalog_id",
          "The id must be a positive integer catalog id (at most 2147483647).",
        );
      }
      const { value, headers } = await c.get("services").catalog.movie(id.data);
      return catalogJson(value, headers);
    }),
};
