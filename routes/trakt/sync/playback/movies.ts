/** GET /trakt/sync/playback/movies: the paused films' points (docs/trakt.md, "Writes and scrobbles"). */
import type { Handlers } from "@/lib/http/app_env.ts";
import { traktUserOf } from "@/lib/http/middleware/trakt_user.ts";

export const handler: Handlers = {
  async GET(c) {
    return c.json(await c.var.services.traktWrites.playback(traktUserOf(c).userId));
  },
};
