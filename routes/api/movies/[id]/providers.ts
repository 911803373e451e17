/** GET /api/movies/:id/providers?region=XX: where a movie streams, rents, sells, free or with ads. */
import { catalogIdParam, providersQuerySchema } from "../../../../lib/catalog/mod.ts";
import type { Handlers } from "../../../../lib/http/app_env.ts";
import { withWindowHeaders } from "../../../../lib/http/window_headers.ts";
import { Problem } from "../../../../lib/problem.ts";

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
      const query = providersQuerySchema.safeParse(c.req.query());
      if (!query.success) {
        throw new Problem(
          400,
          "invalid_region",
          "region must be an ISO 3166-1 alpha-2 country code, such as US, GB or DE.",
        );
      }
      const region = query.data.region ?? c.var.deps.config.tmdb.watchRegion;
      const { value, headers } = await c.var.services.catalog.providers(id.data, region);
      return c.json(value, 200, headers);
    }),
};
