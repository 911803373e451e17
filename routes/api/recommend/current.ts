/** GET /api/recommend/current: the stored set with its reasons, never generating. */
import { requireUser } from "../../../lib/auth/require_user.ts";
import type { Handlers } from "../../../lib/http/env.ts";
import { quotaHeadersMiddleware } from "../../../lib/recommend/mod.ts";

/** Quota headers as on the other /api/recommend answers; reading spends nothing. */
export const middleware = [quotaHeadersMiddleware(), requireUser()];

export const handler: Handlers = {
  async GET(c) {
    return c.json(await c.var.services.recommend.current(c.var.user!.id));
  },
};
