/** GET/PATCH/DELETE /api/lists/:id: one of the user's lists, a page of its cards at a time. */
import { searchParams } from "@/lib/http/entry_payloads.ts";
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { listIdOf, readListBody } from "@/lib/http/list_params.ts";
import { parseListPatch, parsePage } from "@/lib/library/lists/mod.ts";

/** The user first: another user's list and an absent one are the same 404. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async GET(c) {
    const { user } = c.var;
    const id = listIdOf(c);
    const page = parsePage(searchParams(c.req.raw));
    return c.json(await c.var.services.lists.read(user.id, id, page));
  },
  async PATCH(c) {
    const { user } = c.var;
    const id = listIdOf(c);
    const fields = parseListPatch(await readListBody(c));
    const list = await c.var.services.lists.update(user.id, id, fields);
    return c.json({ list });
  },
  async DELETE(c) {
    await c.var.services.lists.remove(c.var.user.id, listIdOf(c));
    return c.body(null, 204);
  },
});
