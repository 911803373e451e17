/** POST /api/import/:id/cancel: stops a running import; what it applied stays. */
import { assertSignedIn, requireUser } from "../../../../lib/http/middleware/require_user.ts";
import type { Handlers } from "../../../../lib/http/app_env.ts";

/** The user first; another user's run is a 404. */
export const middleware = [requireUser()];

export const handler: Handlers = {
  async POST(c) {
    const { id } = assertSignedIn(c);
    return c.json(await c.var.services.historyImport.cancel(id, c.req.param("id")!));
  },
};
