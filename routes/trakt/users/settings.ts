/** GET /trakt/users/settings: the signed-in user's settings as Trakt answers them (docs/trakt.md). */
import { readTraktSettings } from "@/lib/connections/trakt/account_reads.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { traktUserOf } from "@/lib/http/middleware/trakt_user.ts";

export const handler: Handlers = {
  async GET(c) {
    const { userId } = traktUserOf(c);
    return c.json(await readTraktSettings(c.var.deps.store, userId));
  },
};
