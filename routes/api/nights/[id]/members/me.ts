/** DELETE /api/nights/:id/members/me: leaves the night. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { nightIdOf } from "@/lib/http/night_params.ts";

/** The user first. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async DELETE(c) {
    await c.var.services.nights.leave(c.var.user.id, nightIdOf(c));
    return c.body(null, 204);
  },
});
