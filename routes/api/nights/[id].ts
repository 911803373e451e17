/** GET/DELETE /api/nights/:id: a night as its members see it; the creator deletes it. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { nightIdOf } from "@/lib/http/night_params.ts";

/** The user first: a night of others and an absent one are the same 404. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async GET(c) {
    return c.json(await c.var.services.nights.read(c.var.user.id, nightIdOf(c)));
  },
  async DELETE(c) {
    await c.var.services.nights.remove(c.var.user.id, nightIdOf(c));
    return c.body(null, 204);
  },
});
