/** DELETE /api/account: deletes the bearer's account and every row of theirs; 204. */
import { readJsonBody } from "../../lib/auth/json_body.ts";
import { parseDeleteConfirmation } from "../../lib/auth/delete_account.ts";
import { requireUser } from "../../lib/auth/require_user.ts";
import type { Handlers } from "../../lib/http/env.ts";

/** The user first: a 401 comes before the body is read. */
export const middleware = [requireUser()];

export const handler: Handlers = {
  async DELETE(c) {
    parseDeleteConfirmation(await readJsonBody(c.req.raw));
    await c.var.services.auth.deleteAccount(c.var.user!);
    return c.body(null, 204);
  },
};
