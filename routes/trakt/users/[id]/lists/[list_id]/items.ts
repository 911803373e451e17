/** GET /trakt/users/:id/lists/:list_id/items: a list's movies in its order, paged (docs/trakt.md). */
import { Problem } from "@/lib/core/problem.ts";
import { readTraktListItems } from "@/lib/connections/trakt/list_reads.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { fullAsked, ownTraktUser, pageAskOf, traktPage } from "@/lib/http/trakt_read.ts";

export const handler: Handlers = {
  async GET(c) {
    const { userId } = await ownTraktUser(c, c.req.param("id")!);
    const page = pageAskOf(c);
    // `type` narrows the items to some kinds (`show,person`): only movies are kept here.
    const type = c.req.query("type");
    if (type && !type.split(",").map((t) => t.trim()).includes("movie")) {
      return traktPage(c, page, { items: [], total: 0 });
    }
    const read = await readTraktListItems(c.var.deps.store, userId, {
      id: c.req.param("list_id")!,
      page,
      full: fullAsked(c),
    });
    if (!read) throw new Problem(404, "not_found", "No list of yours has this id or slug.");
    return traktPage(c, page, read);
  },
};
