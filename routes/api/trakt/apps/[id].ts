/** DELETE /api/trakt/apps/:id: deletes one of the user's apps; its tokens end with it. */
import { z } from "zod";
import { sessionOnly } from "@/lib/http/middleware/session_only.ts";
import { signedIn } from "@/lib/http/middleware/require_user.ts";
import { Problem } from "@/lib/core/problem.ts";

export const middleware = sessionOnly();

export const handler = signedIn({
  async DELETE(c) {
    const id = z.uuid().safeParse(c.req.param("id"));
    if (!id.success) throw new Problem(404, "not_found", "You have no app with this id.");
    await c.var.services.traktAuth.deleteApp(c.var.user.id, id.data);
    return c.body(null, 204);
  },
});
