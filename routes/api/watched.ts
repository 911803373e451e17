/** GET/POST/DELETE /api/watched: the user's watched list. */
import { readWatchedWrite, searchParams } from "@/lib/http/entry_payloads.ts";
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readWritePayload } from "@/lib/http/payloads.ts";
import { parseWatchedQuery } from "@/lib/library/entries/list_query.ts";

/** The user first: a 401 comes before any body parsing; a read checks the session itself. */
export const middleware = [requireUser({ readChecksSession: true })];

export const handler = signedIn({
  async GET(c) {
    const query = parseWatchedQuery(searchParams(c.req.raw));
    const options = { session: c.var.session, query };
    // With limit or cursor, a page (docs/entries.md); without, the whole list as before.
    if (query.page) {
      const page = await c.var.services.entries.page("watched", c.var.user.id, options);
      return c.json({ success: true, ...page });
    }
    const movies = await c.var.services.entries.watched(c.var.user.id, options);
    return c.json({ success: true, movies });
  },
  async POST(c) {
    const { catalogId, fields } = await readWatchedWrite(c.req.raw, c.var.deps.clock.now());
    await c.var.services.entries.addWatched(c.var.user.id, catalogId, { fields });
    return c.json({ success: true, watchedCount: null });
  },
  async DELETE(c) {
    const catalogId = await readWritePayload(c.req.raw);
    await c.var.services.entries.removeWatched(c.var.user.id, catalogId);
    return c.json({ success: true, watchedCount: null });
  },
});
