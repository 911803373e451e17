/** GET/POST/DELETE /api/mylist: the user's My List, in saved order. */
import { requireUser } from "../../lib/auth/require_user.ts";
import type { Handlers } from "../../lib/http/env.ts";
import { searchParams } from "../../lib/http/history_payloads.ts";
import { readWritePayload } from "../../lib/lists/mod.ts";
import { parseMyListQuery } from "../../lib/lists/list_query.ts";

/** The user first: a 401 comes before any body parsing; a read checks the session itself. */
export const middleware = [requireUser({ readChecksSession: true })];

export const handler: Handlers = {
  async GET(c) {
    const query = parseMyListQuery(searchParams(c.req.raw));
    const movies = await c.var.services.lists.myList(c.var.user!.id, {
      session: c.var.session,
      query,
    });
    return c.json({ success: true, movies });
  },
  async POST(c) {
    const catalogId = await readWritePayload(c.req.raw);
    await c.var.services.lists.addMyList(c.var.user!.id, catalogId);
    return c.json({ success: true, myListCount: null });
  },
  async DELETE(c) {
    const catalogId = await readWritePayload(c.req.raw);
    await c.var.services.lists.removeMyList(c.var.user!.id, catalogId);
    return c.json({ success: true, myListCount: null });
  },
};
