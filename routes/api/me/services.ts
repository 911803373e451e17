/** GET/PUT /api/me/services: my region, my streaming providers and the two switches. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readJson } from "@/lib/http/read_body.ts";
import { parseSettingsChange } from "@/lib/catalog/my_streaming/mod.ts";

/** The user first: a 401 comes before any body parsing. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async GET(c) {
    return c.json(await c.var.services.myStreaming.get(c.var.user.id));
  },
  async PUT(c) {
    const change = parseSettingsChange(await readJson(c.req.raw, { requireJsonType: true }));
    return c.json(await c.var.services.myStreaming.put(c.var.user.id, change));
  },
});
