/**
 * POST /api/trakt/authorize: the consent page's answer for one of the user's own apps: a code
 * and where the browser goes next (docs/trakt.md, "Sign-in").
 */
import { sessionOnly } from "@/lib/http/middleware/session_only.ts";
import { signedIn } from "@/lib/http/middleware/require_user.ts";
import { readJson } from "@/lib/http/read_body.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { AuthorizeBody } from "@/lib/connections/trakt/api_bodies.ts";

export const middleware = sessionOnly();

export const handler = signedIn({
  async POST(c) {
    const body = parsedOr400(AuthorizeBody, await readJson(c.req.raw, { requireJsonType: true }), {
      code: "invalid_body",
      detail: 'Send {"clientId", "redirectUri", "state"?, "approve": true|false}.',
    });
    const answer = await c.var.services.traktAuth.authorize(c.var.user.id, body);
    return c.json(answer, 200, { "cache-control": "no-store" });
  },
});
