/** GET /trakt/sync/ratings/movies: the watched films' ratings, latest first (docs/trakt.md). */
import type { Handlers } from "@/lib/http/app_env.ts";
import { ratingsPage } from "@/lib/http/trakt_read.ts";

export const handler: Handlers = { GET: (c) => ratingsPage(c, undefined) };
