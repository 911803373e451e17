/** POST /api/me/connections/feed/rotate: a new My List feed secret; the old URL is dead at once. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";

/** A signed-in session only, as for the other connection settings. */
export const middleware = [requireUser({ personalTokens: false })];

export const handler = signedIn({
  async POST(c) {
    return c.json(await c.var.services.feeds.rotate(c.var.user.id), 200, {
      "cache-control": "no-store",
    });
  },
});
