/**
 * GET /api/nights/:id/events: the night's `member`, `vote` and `match` events (and `start`,
 * `end`) as a text/event-stream, for a member with the Bearer header (docs/nights.md).
 */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { nightIdOf } from "@/lib/http/night_params.ts";

/** The user first. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async GET(c) {
    const stream = await c.var.services.nights.events(c.var.user.id, nightIdOf(c));
    return new Response(stream, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        // Proxies such as nginx would otherwise hold the events back.
        "x-accel-buffering": "no",
      },
    });
  },
});
