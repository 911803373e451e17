/** DELETE /api/account: deletes the bearer's account and every row of theirs; 204. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readDeleteConfirmation } from "@/lib/http/payloads.ts";

/**
 * A signed-in session first (never a personal token), so a 401 comes before the body is read;
 * then its second factor (403).
 */
export const middleware = [requireUser({ personalTokens: false })];

export const handler = signedIn({
  async DELETE(c) {
    await readDeleteConfirmation(c.req.raw);
    await c.var.services.auth.deleteAccount(c.var.user);
    return c.body(null, 204);
  },
});
