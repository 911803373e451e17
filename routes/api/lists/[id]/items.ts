/** POST /api/lists/:id/items: adds a movie to a list (appended unless a position is given). */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { listIdOf, readListBody } from "@/lib/http/list_params.ts";
import { parseItemAdd } from "@/lib/library/lists/mod.ts";

/** The user first: a 401 comes before the id or the body is looked at. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async POST(c) {
    const { user } = c.var;
    const id = listIdOf(c);
    const item = parseItemAdd(await readListBody(c));
    const movie = await c.var.services.lists.addItem(user.id, id, item);
    return c.json({ movie }, 201);
  },
});
