/** POST /api/lists/:id/items: adds a movie to a list (appended unless a position is given). */
import type { Handlers } from "../../../../lib/http/app_env.ts";
import { assertSignedIn, requireUser } from "../../../../lib/http/middleware/require_user.ts";
import { listIdOf, readListBody } from "../../../../lib/http/user_list_params.ts";
import { parseItemAdd } from "../../../../lib/library/lists/mod.ts";

/** The user first: a 401 comes before the id or the body is looked at. */
export const middleware = [requireUser()];

export const handler: Handlers = {
  async POST(c) {
    const user = assertSignedIn(c);
    const id = listIdOf(c);
    const item = parseItemAdd(await readListBody(c));
    const movie = await c.var.services.userLists.addItem(user.id, id, item);
    return c.json({ movie }, 201);
  },
};
