/** GET /api/diary/unrated: the queue of what to rate (docs/diary.md). */
import { parseUnratedLimit } from "@/lib/library/diary/stats_query.ts";
import { searchParams } from "@/lib/http/entry_payloads.ts";
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";

/** The user first. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async GET(c) {
    const limit = parseUnratedLimit(searchParams(c.req.raw));
    return c.json({ movies: await c.var.services.diary.unrated(c.var.user.id, limit) });
  },
});
