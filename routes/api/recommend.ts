/** GET /api/recommend: the user's recommendations (cached, refreshed, or new). */
import { z } from "zod";
import { requireUser } from "../../lib/auth/require_user.ts";
import type { Handlers } from "../../lib/http/env.ts";
import { Problem } from "../../lib/problem.ts";
import { quotaHeadersMiddleware, type RecommendMode } from "../../lib/recommend/mod.ts";

// "true" or "1" turn a flag on; "false", "0" or nothing leave it off; anything else is a 400.
const flag = z.string().trim().toLowerCase().pipe(z.enum(["true", "1", "false", "0", ""]))
  .optional().transform((v) => v === "true" || v === "1");

const querySchema = z.object({ refresh: flag, getNew: flag });

/** Quota headers first, so they reach a 401 too. */
export const middleware = [quotaHeadersMiddleware(), requireUser()];

export const handler: Handlers = {
  async GET(c) {
    const query = querySchema.safeParse(c.req.query());
    if (!query.success) {
      throw new Problem(400, "invalid_query", "refresh and getNew take true or 1 (or false or 0).");
    }
    const mode: RecommendMode = query.data.getNew
      ? "getNew"
      : query.data.refresh
      ? "refresh"
      : "default";
    return c.json(await c.var.services.recommend.recommend(c.var.user!.id, { mode }));
  },
};
