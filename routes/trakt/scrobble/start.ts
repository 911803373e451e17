/** POST /trakt/scrobble/start: a player's start of a movie (docs/trakt.md, "Writes and scrobbles"). */
import { ScrobbleBody } from "@/lib/connections/trakt/write_body.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { traktUserOf } from "@/lib/http/middleware/trakt_user.ts";
import { readTraktJson } from "@/lib/http/trakt_body.ts";

export const handler: Handlers = {
  async POST(c) {
    const { userId } = traktUserOf(c);
    const body = ScrobbleBody.parse(await readTraktJson(c.req.raw));
    return c.json(await c.var.services.traktWrites.scrobble(userId, { body, call: "start" }), 201);
  },
};
