/** POST/DELETE /api/recommend/feedback: 👍 or 👎 on a pick, and taking it back. */
import { signedIn } from "@/lib/http/middleware/require_user.ts";
import { readJson } from "@/lib/http/read_body.ts";
import { parseFeedback } from "@/lib/recommend/local/feedback.ts";
import { parseCatalogId } from "@/lib/library/entries/write_payload.ts";

// The folder's middleware requires the user first (a 401 before any body parsing) and sets no
// quota headers here: feedback spends none.
export const handler = signedIn({
  async POST(c) {
    const feedback = parseFeedback(await readJson(c.req.raw, { requireJsonType: true }));
    await c.var.services.localRecommend.feedback(c.var.user.id, feedback);
    return c.json({ success: true });
  },
  async DELETE(c) {
    const catalogId = parseCatalogId(await readJson(c.req.raw, { requireJsonType: true }));
    await c.var.services.localRecommend.undoFeedback(c.var.user.id, catalogId);
    return c.json({ success: true });
  },
});
