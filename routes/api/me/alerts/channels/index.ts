/** POST /api/me/alerts/channels: adds an alert channel (a webhook's answer carries its secret once). */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readJson } from "@/lib/http/read_body.ts";
import { parseNewChannel } from "@/lib/catalog/notifications/channels/payloads.ts";

/** The user first: a 401 comes before any body parsing. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async POST(c) {
    const body = parseNewChannel(await readJson(c.req.raw, { requireJsonType: true }));
    return c.json(await c.var.services.alerts.create(c.var.user.id, body), 201);
  },
});
