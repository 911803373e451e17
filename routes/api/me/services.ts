/** GET/PUT /api/me/services: my region, my streaming providers and the two switches. */
import type { Handlers } from "../../../lib/http/app_env.ts";
import { assertSignedIn, requireUser } from "../../../lib/http/middleware/require_user.ts";
import { readJson } from "../../../lib/http/read_body.ts";
import { parseSettingsChange } from "../../../lib/catalog/my_services/mod.ts";

/** The user first: a 401 comes before any body parsing. */
export const middleware = [requireUser()];

export const handler: Handlers = {
  async GET(c) {
    return c.json(await c.var.services.myServices.get(assertSignedIn(c).id));
  },
  async PUT(c) {
    const change = parseSettingsChange(await readJson(c.req.raw, { requireJsonType: true }));
    return c.json(await c.var.services.myServices.put(assertSignedIn(c).id, change));
  },
};
