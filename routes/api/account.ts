/** DELETE /api/account: deletes the bearer's account and every row of theirs; 204. */
import type { Handlers } from "../../lib/http/app_env.ts";
import { assertSignedIn, requireUser } from "../../lib/http/middleware/require_user.ts";
import { readDeleteConfirmation } from "../../lib/http/payloads.ts";

/** The user first (a signed-in session: never a personal token); a 401 before the body is read. */
export const middleware = [requireUser({ personalTokens: false })];

export const handler: Handlers = {
  async DELETE(c) {
    await readDeleteConfirmation(c.req.raw);
    await c.var.services.auth.deleteAccount(assertSignedIn(c));
    return c.body(null, 204);
  },
};
