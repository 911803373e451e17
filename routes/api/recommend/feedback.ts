/** POST/DELETE /api/recommend/feedback: 👍 or 👎 on a pick, and taking it back. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readJson } from "@/lib/http/read_body.ts";
import { parseFeedback } from "@/lib/recommend/local/feedback.ts";
import { parseCatalogId } from "@/lib/library/entries/write_payload.ts";

// Left out of the folder's middleware (no quota): the user is required first, so a 401 comes
// before any body parsing.
export const middleware = [requireUser()];

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
