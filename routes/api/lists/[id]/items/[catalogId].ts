/** PATCH/DELETE /api/lists/:id/items/:catalogId: move an item, change its note, remove it. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { itemIdOf, listIdOf, readListBody } from "@/lib/http/list_params.ts";
import { parseItemPatch } from "@/lib/library/lists/mod.ts";

/** The user first: a 401 comes before the ids or the body are looked at. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async PATCH(c) {
    const { user } = c.var;
    const key = { listId: listIdOf(c), catalogId: itemIdOf(c) };
    const patch = parseItemPatch(await readListBody(c));
    const movie = await c.var.services.lists.updateItem(user.id, key, patch);
    return c.json({ movie });
  },
  async DELETE(c) {
    const { user } = c.var;
    const key = { listId: listIdOf(c), catalogId: itemIdOf(c) };
    await c.var.services.lists.removeItem(user.id, key);
    return c.body(null, 204);
  },
});
