/** PATCH/DELETE /api/me/alerts/channels/:id: renames or switches a channel, or removes it. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readJson } from "@/lib/http/read_body.ts";
import {
  parseChannelId,
  parseChannelPatch,
} from "@/lib/catalog/notifications/channels/payloads.ts";

/** The user first: another user's channel and an absent one are the same 404. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async PATCH(c) {
    const id = parseChannelId(c.req.param("id"));
    const patch = parseChannelPatch(await readJson(c.req.raw, { requireJsonType: true }));
    return c.json(await c.var.services.alerts.update(c.var.user.id, id, patch));
  },
  async DELETE(c) {
    await c.var.services.alerts.remove(c.var.user.id, parseChannelId(c.req.param("id")));
    return c.body(null, 204);
  },
});
