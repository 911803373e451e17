/** GET /trakt/sync/watched/movies: every watched film with its plays (docs/trakt.md, "Reads"). */
import { readWatched } from "@/lib/connections/trakt/sync_reads.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { traktUserOf } from "@/lib/http/middleware/trakt_user.ts";
import { fullAsked } from "@/lib/http/trakt_read.ts";

export const handler: Handlers = {
  async GET(c) {
    const { userId } = traktUserOf(c);
    return c.json(await readWatched(c.var.deps.store, userId, { full: fullAsked(c) }));
  },
};
