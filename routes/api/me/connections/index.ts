/** GET/PUT /api/me/connections: the user's webhook URL and its settings (docs/connections.md). */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readJson } from "@/lib/http/read_body.ts";
import { parseConnectionSettings } from "@/lib/connections/webhooks/payload.ts";

/** A signed-in session only: a personal token cannot read the secret or reroute the webhooks. */
export const middleware = [requireUser({ personalTokens: false })];

export const handler = signedIn({
  async GET(c) {
    const settings = await c.var.services.connections.settings(c.var.user.id);
    // The answer holds the webhook's secret: never cache it anywhere.
    return c.json(settings, 200, { "cache-control": "no-store" });
  },
  async PUT(c) {
    const { user } = c.var;
    const patch = parseConnectionSettings(await readJson(c.req.raw, { requireJsonType: true }));
    return c.json(await c.var.services.connections.update(user.id, patch), 200, {
      "cache-control": "no-store",
    });
  },
});
