/** POST/DELETE /api/lists/:id/share: a new read-only link (the old one dies), or none. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { listIdOf } from "@/lib/http/list_params.ts";

/** The user first: another user's list and an absent one are the same 404. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async POST(c) {
    return c.json(await c.var.services.lists.share(c.var.user.id, listIdOf(c)));
  },
  async DELETE(c) {
    await c.var.services.lists.unshare(c.var.user.id, listIdOf(c));
    return c.body(null, 204);
  },
});
