/** GET/PUT /api/me/alerts: the alert kinds I want and my channels (targets masked). */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readJson } from "@/lib/http/read_body.ts";
import { parseKindsBody } from "@/lib/catalog/notifications/channels/service.ts";

/** The user first: a 401 comes before any body parsing. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async GET(c) {
    return c.json(await c.var.services.alerts.read(c.var.user.id));
  },
  async PUT(c) {
    const kinds = parseKindsBody(await readJson(c.req.raw, { requireJsonType: true }));
    return c.json(await c.var.services.alerts.writeKinds(c.var.user.id, kinds));
  },
});
