/** GET /trakt/users/:id/watching: the film watched now, or 204 (docs/trakt.md, "Writes and scrobbles"). */
import type { Handlers } from "@/lib/http/app_env.ts";
import { traktUserOf } from "@/lib/http/middleware/trakt_user.ts";

export const handler: Handlers = {
  async GET(c) {
    const { userId } = traktUserOf(c);
    const now = await c.var.services.traktWrites.watching(userId, c.req.param("id") ?? "me");
    if (now === null) return c.body(null, 204);
    const { progress: _progress, ...answer } = now;
    return c.json(answer);
  },
};
