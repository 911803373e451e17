/** GET/POST/DELETE /api/recommend/dismissed: the movies the user is not interested in. */
import { signedIn } from "@/lib/http/middleware/require_user.ts";
import { readWritePayload } from "@/lib/http/payloads.ts";

// The folder's middleware requires the user first: a 401 comes before any body parsing.
export const handler = signedIn({
  async GET(c) {
    return c.json({
      catalogIds: await c.var.services.recommend.dismissed(c.var.user.id),
    });
  },
  async POST(c) {
    const catalogId = await readWritePayload(c.req.raw);
    await c.var.services.recommend.dismiss(c.var.user.id, catalogId);
    return c.json({ success: true });
  },
  async DELETE(c) {
    const catalogId = await readWritePayload(c.req.raw);
    await c.var.services.recommend.undismiss(c.var.user.id, catalogId);
    return c.json({ success: true });
  },
});
