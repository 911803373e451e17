/** GET/POST/DELETE /api/mylist: the user's My List, in saved order. */
import { searchParams } from "@/lib/http/entry_payloads.ts";
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readWritePayload } from "@/lib/http/payloads.ts";
import { parseMyListQuery } from "@/lib/library/entries/list_query.ts";

/** The user first: a 401 comes before any body parsing; a read checks the session itself. */
export const middleware = [requireUser({ readChecksSession: true })];

export const handler = signedIn({
  async GET(c) {
    const query = parseMyListQuery(searchParams(c.req.raw));
    const options = { session: c.var.session, query };
    // With limit or cursor, a page (docs/entries.md); without, the whole list as before.
    if (query.page) {
      const page = await c.var.services.entries.page("mylist", c.var.user.id, options);
      return c.json({ success: true, ...page });
    }
    const movies = await c.var.services.entries.myList(c.var.user.id, options);
    return c.json({ success: true, movies });
  },
  async POST(c) {
    const catalogId = await readWritePayload(c.req.raw);
    await c.var.services.entries.addMyList(c.var.user.id, catalogId);
    return c.json({ success: true, myListCount: null });
  },
  async DELETE(c) {
    const catalogId = await readWritePayload(c.req.raw);
    await c.var.services.entries.removeMyList(c.var.user.id, catalogId);
    return c.json({ success: true, myListCount: null });
  },
});
