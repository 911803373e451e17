/**
 * GET /trakt/sync/watchlist: the whole watchlist; movies only here, so My List as
 * /sync/watchlist/movies (docs/trakt.md, "Reads").
 * POST /trakt/sync/watchlist: films added to My List (a watched one is not) (docs/trakt.md, "Writes and scrobbles").
 */
import { SyncBody } from "@/lib/connections/trakt/write_body.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { traktUserOf } from "@/lib/http/middleware/trakt_user.ts";
import { readTraktJson } from "@/lib/http/trakt_body.ts";
import { watchlistPage } from "@/lib/http/trakt_read.ts";

export const handler: Handlers = {
  GET: (c) => watchlistPage(c, undefined),
  async POST(c) {
    const { userId } = traktUserOf(c);
    const body = SyncBody.parse(await readTraktJson(c.req.raw));
    return c.json(await c.var.services.traktWrites.addWatchlist(userId, body), 201);
  },
};
