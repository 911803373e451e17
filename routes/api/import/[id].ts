/** GET /api/import/:id: one of the user's import runs, with its progress and report. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";

/** The user first; another user's run is a 404, as if it did not exist. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async GET(c) {
    return c.json(await c.var.services.historyImport.get(c.var.user.id, c.req.param("id")!));
  },
});
