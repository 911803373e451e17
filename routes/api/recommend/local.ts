/** GET /api/recommend/local: picks from the local model (no AI, no quota, nothing written). */
import { signedIn } from "@/lib/http/middleware/require_user.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { localQuerySchema } from "@/lib/recommend/local/query.ts";

// The folder's middleware requires the user and adds the AI quota's headers, unchanged here.
export const handler = signedIn({
  async GET(c) {
    const query = parsedOr400(localQuerySchema, c.req.query(), {
      code: "invalid_query",
      detail: "limit must be 1-50, onlyMine and fromMyList true or false, genre a known genre.",
    });
    const recommendations = await c.var.services.localRecommend.picks(c.var.user.id, query);
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
