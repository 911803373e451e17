/** GET /api/movies/:id/providers?region=XX: where a movie streams, rents, sells, free or with ads. */
import { catalogIdParam, providersQuerySchema } from "@/lib/catalog/mod.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { withWindowHeaders } from "@/lib/http/window_headers.ts";

export const handler: Handlers = {
  GET: (c) =>
    withWindowHeaders(c, async () => {
      const id = parsedOr400(catalogIdParam, c.req.param("id"), {
        code: "invalid_catalog_id",
        detail: "The id must be a positive integer catalog id (at most 2147483647).",
      });
      const query = parsedOr400(providersQuerySchema, c.req.query(), {
        code: "invalid_region",
        detail: "region must be an ISO 3166-1 alpha-2 country code, such as US, GB or DE.",
      });
      const region = query.region ?? c.var.deps.config.tmdb.watchRegion;
      const { value, headers } = await c.var.services.catalog.providers(id, region);
      return c.json(value, 200, headers);
    }),
};
