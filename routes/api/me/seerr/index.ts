/**
 * GET/PUT/DELETE /api/me/seerr: the user's Seerr (docs/trakt.md, "Other apps"): its URL and when
 * it was saved; the API key goes in once and is never shown again.
 */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readJson } from "@/lib/http/read_body.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { SeerrBody } from "@/lib/connections/seerr/mod.ts";

/** A signed-in session only: a personal token cannot point the Request button elsewhere. */
export const middleware = [requireUser({ personalTokens: false })];

export const handler = signedIn({
  async GET(c) {
    return c.json(await c.var.services.seerr.settings(c.var.user.id), 200, {
      "cache-control": "no-store",
    });
  },
  async PUT(c) {
    const body = parsedOr400(SeerrBody, await readJson(c.req.raw, { requireJsonType: true }), {
      code: "invalid_body",
      detail: 'Expected {"url": an http(s) base URL without credentials, "apiKey": 1-200 ' +
        "characters}.",
    });
    return c.json(await c.var.services.seerr.save(c.var.user.id, body), 200, {
      "cache-control": "no-store",
    });
  },
  async DELETE(c) {
    await c.var.services.seerr.remove(c.var.user.id);
    return c.body(null, 204);
  },
});
