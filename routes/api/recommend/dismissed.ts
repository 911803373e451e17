/** GET/POST/DELETE /api/recommend/dismissed: the movies the user is not interested in. */
import { requireUser } from "../../../lib/auth/require_user.ts";
import type { Handlers } from "../../../lib/http/env.ts";
import { readWritePayload } from "../../../lib/lists/mod.ts";

/** The user first: a 401 comes before any body parsing. */
export const middleware = [requireUser()];

export const handler: Handlers = {
  async GET(c) {
    return c.json({ catalogIds: await c.var.services.recommend.dismissed(c.var.user!.id) });
  },
  async POST(c) {
    const catalogId = await readWritePayload(c.req.raw);
    await c.var.services.recommend.dismiss(c.var.user!.id, catalogId);
    return c.json({ success: true });
  },
  async DELETE(c) {
    const catalogId = await readWritePayload(c.req.raw);
    await c.var.services.recommend.undismiss(c.var.user!.id, catalogId);
    return c.json({ success: true });
  },
};
