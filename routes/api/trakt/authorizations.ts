/** GET /api/trakt/authorizations: the apps the user signed in to, with their last use. */
import { sessionOnly } from "@/lib/http/middleware/session_only.ts";
import { signedIn } from "@/lib/http/middleware/require_user.ts";

export const middleware = sessionOnly();

export const handler = signedIn({
  async GET(c) {
    return c.json({
      authorizations: await c.var.services.traktAuth.authorizations(c.var.user.id),
    });
  },
});
