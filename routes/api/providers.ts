/** GET /api/providers?region=XX: the streaming providers stored for a region (no TMDB call). */
import { providersQuerySchema } from "../../lib/catalog/mod.ts";
import type { Handlers } from "../../lib/http/app_env.ts";
import { Problem } from "../../lib/problem.ts";

export const handler: Handlers = {
  async GET(c) {
    const query = providersQuerySchema.safeParse(c.req.query());
    if (!query.success) {
      throw new Problem(
        400,
        "invalid_region",
        "region must be an ISO 3166-1 alpha-2 country code, such as US, GB or DE.",
      );
    }
    const region = query.data.region ?? c.var.deps.config.tmdb.watchRegion;
    const providers = await c.var.services.myServices.regionProviders(region);
    return c.json({ region, providers });
  },
};
