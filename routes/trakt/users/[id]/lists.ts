/** GET /trakt/users/:id/lists: the user's own lists (`me` or their slug) (docs/trakt.md, "Reads"). */
import { readTraktLists } from "@/lib/connections/trakt/list_reads.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { ownTraktUser } from "@/lib/http/trakt_read.ts";

export const handler: Handlers = {
  async GET(c) {
    const { userId, user } = await ownTraktUser(c, c.req.param("id")!);
    return c.json(await readTraktLists(c.var.deps.store, userId, user));
  },
};
