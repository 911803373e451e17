/**
 * GET /feeds/:secret/calendar.ics?types=&list=: the release calendar as an iCal feed
 * (docs/calendar.md, "The iCal feed"), by the same secret as the My List feed; ETag and 304 for
 * calendar apps' polls.
 */
import type { Handlers } from "@/lib/http/app_env.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { searchParams } from "@/lib/http/entry_payloads.ts";

export const handler: Handlers = {
  async GET(c) {
    const answer = await c.var.services.calendarFeed.read(c.req.param("secret") ?? "", {
      address: clientAddress(c),
      params: searchParams(c.req.raw),
      ifNoneMatch: c.req.header("if-none-match") ?? null,
    });
    // The secret is the credential: only the client keeps a copy, and revalidates it.
    const headers = { "cache-control": "private, no-cache", etag: answer.etag };
    if (answer.status === 304) return c.body(null, 304, headers);
    return c.body(answer.body, 200, {
      ...headers,
      "content-type": "text/calendar; charset=utf-8",
    });
  },
};
