/** GET /api/recommend: the user's recommendations (cached, refreshed, or new). */
import { parsedOr400 } from "@/lib/http/validate.ts";
import { signedIn } from "@/lib/http/middleware/require_user.ts";
import { quotaHeaders, type RecommendMode, recommendQuerySchema } from "@/lib/recommend/mod.ts";

export const handler = signedIn({
  async GET(c) {
    const query = parsedOr400(recommendQuerySchema, c.req.query(), {
      code: "invalid_query",
      detail: "refresh and getNew take true or 1 (or false or 0).",
    });
    const mode: RecommendMode = query.getNew ? "getNew" : query.refresh ? "refresh" : "default";
    // The token's session is checked inside the service's first statement (one round trip).
    const { result, quota } = await c.var.services.recommend.answer(c.var.user.id, {
      mode,
      session: c.var.session,
    });
    const response = c.json(result);
    // A cached answer carries the quota read beside it; the middleware then reads none.
    if (quota) {
      for (const [name, value] of Object.entries(quotaHeaders(quota))) {
        response.headers.set(name, value);
      }
    }
    return response;
  },
});
