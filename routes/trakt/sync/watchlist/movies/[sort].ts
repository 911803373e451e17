/** GET /trakt/sync/watchlist/movies/:sort: My List by rank, added, released or title (docs/trakt.md). */
import type { Handlers } from "@/lib/http/app_env.ts";
import { watchlistPage } from "@/lib/http/trakt_read.ts";

export const handler: Handlers = { GET: (c) => watchlistPage(c, c.req.param("sort")) };
