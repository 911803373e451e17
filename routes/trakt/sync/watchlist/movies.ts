/** GET /trakt/sync/watchlist/movies: My List in its order (docs/trakt.md, "Reads"). */
import type { Handlers } from "@/lib/http/app_env.ts";
import { watchlistPage } from "@/lib/http/trakt_read.ts";

export const handler: Handlers = { GET: (c) => watchlistPage(c, undefined) };
