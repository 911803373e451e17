/** GET /api/me/connections/events: the last 50 events the webhooks received, with their outcome. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";

/** A signed-in session only, as for the settings. */
export const middleware = [requireUser({ personalTokens: false })];

export const handler = signedIn({
  async GET(c) {
    return c.json({ events: await c.var.services.connections.events(c.var.user.id) });
  },
});
