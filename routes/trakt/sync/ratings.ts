/**
 * GET /trakt/sync/ratings: every rating; movies only here, so /sync/ratings/movies
 * (docs/trakt.md, "Reads").
 * POST /trakt/sync/ratings: ratings on the watched films (docs/trakt.md, "Writes and scrobbles").
 */
import { SyncBody } from "@/lib/connections/trakt/write_body.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { traktUserOf } from "@/lib/http/middleware/trakt_user.ts";
import { readTraktJson } from "@/lib/http/trakt_body.ts";
import { ratingsPage } from "@/lib/http/trakt_read.ts";

export const handler: Handlers = {
  GET: (c) => ratingsPage(c, undefined),
  async POST(c) {
    const { userId } = traktUserOf(c);
    const body = SyncBody.parse(await readTraktJson(c.req.raw));
    return c.json(await c.var.services.traktWrites.addRatings(userId, body), 201);
  },
};
