/** DELETE /api/trakt/authorizations/:id: signs an app out; its access and refresh tokens die at once. */
import { z } from "zod";
import { sessionOnly } from "@/lib/http/middleware/session_only.ts";
import { signedIn } from "@/lib/http/middleware/require_user.ts";
import { Problem } from "@/lib/core/problem.ts";

export const middleware = sessionOnly();

export const handler = signedIn({
  async DELETE(c) {
    const id = z.uuid().safeParse(c.req.param("id"));
    if (!id.success) {
      throw new Problem(404, "not_found", "You have no authorized app with this id.");
    }
    await c.var.services.traktAuth.deleteAuthorization(c.var.user.id, id.data);
    return c.body(null, 204);
  },
});
