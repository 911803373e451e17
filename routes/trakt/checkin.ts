/** POST/DELETE /trakt/checkin: check in to a movie, or cancel it (docs/trakt.md, "Writes and scrobbles"). */
import { ScrobbleBody } from "@/lib/connections/trakt/write_body.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { traktUserOf } from "@/lib/http/middleware/trakt_user.ts";
import { readTraktJson } from "@/lib/http/trakt_body.ts";

export const handler: Handlers = {
  async POST(c) {
    const { userId } = traktUserOf(c);
    const body = ScrobbleBody.parse(await readTraktJson(c.req.raw));
    return c.json(await c.var.services.traktWrites.checkin(userId, body), 201);
  },
  async DELETE(c) {
    await c.var.services.traktWrites.cancelCheckin(traktUserOf(c).userId);
    return c.body(null, 204);
  },
};
