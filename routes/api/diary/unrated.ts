/** GET /api/diary/unrated: the queue of what to rate (docs/diary.md). */
import { parseUnratedLimit } from "../../../lib/library/diary/stats_query.ts";
import type { Handlers } from "../../../lib/http/app_env.ts";
import { searchParams } from "../../../lib/http/entry_payloads.ts";
import { assertSignedIn, requireUser } from "../../../lib/http/middleware/require_user.ts";

/** The user first. */
export const middleware = [requireUser()];

export const handler: Handlers = {
  async GET(c) {
    const limit = parseUnratedLimit(searchParams(c.req.raw));
    return c.json({ movies: await c.var.services.diary.unrated(assertSignedIn(c).id, limit) });
  },
};
