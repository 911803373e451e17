/** GET /api/recommend/current: the stored set with its reasons, never generating. */
import type { Handlers } from "../../../lib/http/app_env.ts";
import { assertSignedIn } from "../../../lib/http/middleware/require_user.ts";

// The folder's middleware adds the quota headers and requires the user; reading spends nothing.
export const handler: Handlers = {
  async GET(c) {
    return c.json(await c.var.services.recommend.current(assertSignedIn(c).id));
  },
};
