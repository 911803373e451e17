/**
 * GET /api/calendar?from=&to=&types=&list=: the release dates of the user's films by day, in
 * their region (docs/calendar.md).
 */
import { parseCalendarQuery } from "@/lib/library/calendar/mod.ts";
import { searchParams } from "@/lib/http/entry_payloads.ts";
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";

/** The user first. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async GET(c) {
    const query = parseCalendarQuery(searchParams(c.req.raw), {
      now: c.var.deps.clock.now(),
    });
    return c.json(await c.var.services.calendar.read(c.var.user.id, query));
  },
});
