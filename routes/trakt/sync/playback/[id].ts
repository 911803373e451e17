/** DELETE /trakt/sync/playback/:id: removes a playback point (docs/trakt.md, "Writes and scrobbles"). */
import { Problem } from "@/lib/core/problem.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { traktUserOf } from "@/lib/http/middleware/trakt_user.ts";

export const handler: Handlers = {
  async DELETE(c) {
    const { userId } = traktUserOf(c);
    const raw = c.req.param("id") ?? "";
    const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(id) || id < 1) {
      throw new Problem(404, "not_found", "No playback point has this id.");
    }
    await c.var.services.traktWrites.removePlayback(userId, id);
    return c.body(null, 204);
  },
};
