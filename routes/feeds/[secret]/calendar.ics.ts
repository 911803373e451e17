/**
 * GET /feeds/:secret/calendar.ics?types=&list=: the release calendar as an iCal feed
 * (docs/calendar.md, "The iCal feed"), by the same secret as the My List feed; ETag and 304 for
 * calendar apps' polls, gzip for the clients that accept it.
 */
import type { Handlers } from "@/lib/http/app_env.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { searchParams } from "@/lib/http/entry_payloads.ts";

/** Whether an Accept-Encoding header takes gzip: `gzip`, `x-gzip` or `*`, not at q=0. */
function acceptsGzip(header: string | undefined): boolean {
  let star = false;
  for (const part of (header ?? "").toLowerCase().split(",")) {
    const [coding, ...params] = part.split(";").map((s) => s.trim());
    const q = params.find((p) => p.startsWith("q="));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (coding === "gzip" || coding === "x-gzip") return allowed;
    if (coding === "*") star = allowed;
  }
  return star;
}

export const handler: Handlers = {
  async GET(c) {
    const answer = await c.var.services.calendarFeed.read(c.req.param("secret") ?? "", {
      address: clientAddress(c),
      params: searchParams(c.req.raw),
      ifNoneMatch: c.req.header("if-none-match") ?? null,
      gzip: acceptsGzip(c.req.header("accept-encoding")),
    });
    // The secret is the credential: only the client keeps a copy, and revalidates it.
    const headers: Record<string, string> = {
      "cache-control": "private, no-cache",
      etag: answer.etag,
      vary: "Accept-Encoding",
    };
    if (answer.status === 304) return c.body(null, 304, headers);
    headers["content-type"] = "text/calendar; charset=utf-8";
    if (answer.gzip) headers["content-encoding"] = "gzip";
    return c.body(answer.body, 200, headers);
  },
};
