/** GET /trakt/sync/history/movies/:id: one film's viewings (its trakt id), paged (docs/trakt.md). */
import type { Handlers } from "@/lib/http/app_env.ts";
import { historyPage } from "@/lib/http/trakt_read.ts";

export const handler: Handlers = { GET: (c) => historyPage(c, c.req.param("id")) };
