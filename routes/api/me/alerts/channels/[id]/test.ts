/** POST /api/me/alerts/channels/:id/test: one delivery attempt of a test message, now. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { parseChannelId } from "@/lib/catalog/notifications/channels/payloads.ts";

/** The user first: another user's channel and an absent one are the same 404. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async POST(c) {
    const id = parseChannelId(c.req.param("id"));
    return c.json(await c.var.services.alerts.test(c.var.user.id, id));
  },
});
