/** GET /trakt/users/:id/lists/:list_id: one of the user's lists, by number or slug (docs/trakt.md). */
import { Problem } from "@/lib/core/problem.ts";
import { readTraktList } from "@/lib/connections/trakt/list_reads.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { ownTraktUser } from "@/lib/http/trakt_read.ts";

export const handler: Handlers = {
  async GET(c) {
    const { userId, user } = await ownTraktUser(c, c.req.param("id")!);
    const list = await readTraktList(c.var.deps.store, userId, {
      id: c.req.param("list_id")!,
      user,
    });
    if (!list) throw new Problem(404, "not_found", "No list of yours has this id or slug.");
    return c.json(list);
  },
};
