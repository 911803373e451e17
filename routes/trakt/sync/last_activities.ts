/**
 * GET /trakt/sync/last_activities: when each kind of the user's data last changed, by any path
 * (docs/trakt.md, "Reads").
 */
import { readLastActivities } from "@/lib/connections/trakt/account_reads.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { traktUserOf } from "@/lib/http/middleware/trakt_user.ts";

export const handler: Handlers = {
  async GET(c) {
    const { userId } = traktUserOf(c);
    return c.json(await readLastActivities(c.var.deps.store, userId));
  },
};
