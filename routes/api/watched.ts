/** GET/POST/DELETE /api/watched: the user's watched list. */
import { requireUser } from "../../lib/auth/require_user.ts";
import type { Handlers } from "../../lib/http/env.ts";
import { readWatchedWrite, searchParams } from "../../lib/http/history_payloads.ts";
import { readWritePayload } from "../../lib/lists/mod.ts";
import { parseWatchedQuery } from "../../lib/lists/list_query.ts";

/** The user first: a 401 comes before any body parsing; a read checks the session itself. */
export const middleware = [requireUser({ readChecksSession: true })];

export const handler: Handlers = {
  async GET(c) {
    const query = parseWatchedQuery(searchParams(c.req.raw));
    const movies = await c.var.services.lists.watched(c.var.user!.id, {
      session: c.var.session,
      query,
    });
    return c.json({ success: true, movies });
  },
  async POST(c) {
    const { catalogId, fields } = await readWatchedWrite(c.req.raw, c.var.deps.clock.now());
    await c.var.services.lists.addWatched(c.var.user!.id, catalogId, { fields });
    return c.json({ success: true, watchedCount: null });
  },
  async DELETE(c) {
    const catalogId = await readWritePayload(c.req.raw);
    await c.var.services.lists.removeWatched(c.var.user!.id, catalogId);
    return c.json({ success: true, watchedCount: null });
  },
};
