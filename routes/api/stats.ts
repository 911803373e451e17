/** GET /api/stats?year=: a year of watching (or all of it) in numbers (docs/diary.md). */
import { parseStatsYear } from "@/lib/library/diary/stats_query.ts";
import { searchParams } from "@/lib/http/entry_payloads.ts";
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";

/** The user first. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async GET(c) {
    const year = parseStatsYear(searchParams(c.req.raw));
    return c.json(await c.var.services.diary.stats(c.var.user.id, year));
  },
});
