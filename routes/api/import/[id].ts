/** GET /api/import/:id: one of the user's import runs, with its progress and report. */
import { assertSignedIn, requireUser } from "../../../lib/http/middleware/require_user.ts";
import type { Handlers } from "../../../lib/http/app_env.ts";

/** The user first; another user's run is a 404, as if it did not exist. */
export const middleware = [requireUser()];

export const handler: Handlers = {
  async GET(c) {
    return c.json(await c.var.services.historyImport.get(assertSignedIn(c).id, c.req.param("id")!));
  },
};
