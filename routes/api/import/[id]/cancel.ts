/** POST /api/import/:id/cancel: stops a running import; what it applied stays. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";

/** The user first; another user's run is a 404. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async POST(c) {
    const { id } = c.var.user;
    return c.json(await c.var.services.historyImport.cancel(id, c.req.param("id")!));
  },
});
