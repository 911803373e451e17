/** GET/POST /api/lists: the user's own lists. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readListBody } from "@/lib/http/list_params.ts";
import { parseListCreate } from "@/lib/library/lists/mod.ts";

/** The user first: a 401 comes before any body parsing. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async GET(c) {
    const lists = await c.var.services.lists.lists(c.var.user.id);
    return c.json({ lists });
  },
  async POST(c) {
    const { user } = c.var;
    const fields = parseListCreate(await readListBody(c));
    const list = await c.var.services.lists.create(user.id, fields);
    return c.json({ list }, 201);
  },
});
