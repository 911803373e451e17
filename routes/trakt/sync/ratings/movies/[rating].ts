/** GET /trakt/sync/ratings/movies/:rating: the ratings asked (`9` or `8,9,10`) (docs/trakt.md). */
import type { Handlers } from "@/lib/http/app_env.ts";
import { ratingsPage } from "@/lib/http/trakt_read.ts";

export const handler: Handlers = { GET: (c) => ratingsPage(c, c.req.param("rating")) };
