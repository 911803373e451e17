/** GET /api/providers?region=XX: the streaming providers stored for a region (no TMDB call). */
import { providersQuerySchema } from "@/lib/catalog/mod.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";

export const handler: Handlers = {
  async GET(c) {
    const query = parsedOr400(providersQuerySchema, c.req.query(), {
      code: "invalid_region",
      detail: "region must be an ISO 3166-1 alpha-2 country code, such as US, GB or DE.",
    });
    const region = query.region ?? c.var.deps.config.tmdb.watchRegion;
    const providers = await c.var.services.myStreaming.regionProviders(region);
    return c.json({ region, providers });
  },
};
