/** GET/POST /api/lists: the user's own lists. */
import type { Handlers } from "../../lib/http/app_env.ts";
import { assertSignedIn, requireUser } from "../../lib/http/middleware/require_user.ts";
import { readListBody } from "../../lib/http/user_list_params.ts";
import { parseListCreate } from "../../lib/library/lists/mod.ts";

/** The user first: a 401 comes before any body parsing. */
export const middleware = [requireUser()];

export const handler: Handlers = {
  async GET(c) {
    const lists = await c.var.services.userLists.lists(assertSignedIn(c).id);
    return c.json({ lists });
  },
  async POST(c) {
    const user = assertSignedIn(c);
    const fields = parseListCreate(await readListBody(c));
    const list = await c.var.services.userLists.create(user.id, fields);
    return c.json({ list }, 201);
  },
};
