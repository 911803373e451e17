/** GET/POST/DELETE /api/recommend/dismissed: the movies the user is not interested in. */
import type { Handlers } from "../../../lib/http/app_env.ts";
import { assertSignedIn } from "../../../lib/http/middleware/require_user.ts";
import { readWritePayload } from "../../../lib/http/payloads.ts";

// The folder's middleware requires the user first: a 401 comes before any body parsing.
export const handler: Handlers = {
  async GET(c) {
    return c.json({
      catalogIds: await c.var.services.recommend.dismissed(assertSignedIn(c).id),
    });
  },
  async POST(c) {
    const catalogId = await readWritePayload(c.req.raw);
    await c.var.services.recommend.dismiss(assertSignedIn(c).id, catalogId);
    return c.json({ success: true });
  },
  async DELETE(c) {
    const catalogId = await readWritePayload(c.req.raw);
    await c.var.services.recommend.undismiss(assertSignedIn(c).id, catalogId);
    return c.json({ success: true });
  },
};
