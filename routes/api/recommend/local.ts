/** GET /api/recommend/local: picks from the local model (no AI, no quota, nothing written). */
import { signedIn } from "@/lib/http/middleware/require_user.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { localQuerySchema } from "@/lib/recommend/local/query.ts";

// The folder's middleware requires the user (the session is checked inside the picks' first
// statement) and, since nothing here spends quota, sets no quota headers.
export const handler = signedIn({
  async GET(c) {
    const query = parsedOr400(localQuerySchema, c.req.query(), {
      code: "invalid_query",
      detail: "limit must be 1-50, onlyMine and fromMyList true or false, genre a known genre.",
    });
    // The session's check rides on the picks' first statement.
    const recommendations = await c.var.services.localRecommend.picks(c.var.user.id, {
      ...query,
      session: c.var.session,
    });
    return c.json({
      source: "local",
      recommendations: recommendations.map(({ catalogId, score, reasons }) => ({
        catalogId,
        score,
        reasons,
      })),
    });
  },
});
