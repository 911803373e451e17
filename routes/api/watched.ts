/** GET/POST/DELETE /api/watched: the user's watched list. */
import { requireUser } from "../../lib/auth/require_user.ts";
import type { Handlers } from "../../lib/http/app_env.ts";
import { readWritePayload } from "../../lib/lists/mod.ts";

/** The user first: a 401 comes before any body parsing; a read checks the session itself. */
export const middleware = [requireUser({ readChecksSession: true })];

export const handler: Handlers = {
  async GET(c) {
    const movies = await c.var.services.lists.watched(c.var.user!.id, { session: c.var.session });
    return c.json({ success: true, movies });
  },
  async POST(c) {
    const catalogId = await readWritePayload(c.req.raw);
    await c.var.services.lists.addWatched(c.var.user!.id, catalogId);
    return c.json({ success: true, watchedCount: null });
  },
  async DELETE(c) {
    const catalogId = await readWritePayload(c.req.raw);
    await c.var.services.lists.removeWatched(c.var.user!.id, catalogId);
    return c.json({ success: true, watchedCount: null });
  },
};
