/** DELETE /api/tokens/:id: revokes one of the user's personal access tokens at once. */
import { z } from "zod";
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { Problem } from "@/lib/core/problem.ts";

/** A signed-in session only (a token cannot revoke tokens), with its second factor when it has one. */
export const middleware = [requireUser({ personalTokens: false })];

const TokenId = z.uuid();

export const handler = signedIn({
  async DELETE(c) {
    const { user } = c.var;
    const id = TokenId.safeParse(c.req.param("id"));
    if (!id.success) throw new Problem(404, "not_found", "You have no token with this id.");
    await c.var.services.personalTokens.revoke(user.id, id.data);
    return c.body(null, 204);
  },
});
