/** POST /api/me/connections/rotate: a new webhook secret; the old URL stops working at once. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";

/** A signed-in session only, as for the settings. */
export const middleware = [requireUser({ personalTokens: false })];

export const handler = signedIn({
  async POST(c) {
    const rotated = await c.var.services.connections.rotate(c.var.user.id);
    return c.json(rotated, 200, { "cache-control": "no-store" });
  },
});
