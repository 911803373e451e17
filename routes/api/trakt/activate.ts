/**
 * GET/POST /api/trakt/activate: the device code a person typed on /activate, and their answer
 * (docs/trakt.md, "Sign-in").
 */
import { sessionOnly } from "@/lib/http/middleware/session_only.ts";
import { signedIn } from "@/lib/http/middleware/require_user.ts";
import { readJson } from "@/lib/http/read_body.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { ActivateBody, ActivateQuery } from "@/lib/connections/trakt/api_bodies.ts";

export const middleware = sessionOnly();

export const handler = signedIn({
  async GET(c) {
    const { code } = parsedOr400(ActivateQuery, { code: c.req.query("code") }, {
      code: "invalid_query",
      detail: "Send ?code= with the code the app shows.",
    });
    return c.json(await c.var.services.traktAuth.activation(code), 200, {
      "cache-control": "no-store",
    });
  },
  async POST(c) {
    const body = parsedOr400(ActivateBody, await readJson(c.req.raw, { requireJsonType: true }), {
      code: "invalid_body",
      detail: 'Send {"code", "approve": true|false}.',
    });
    const result = await c.var.services.traktAuth.decide(c.var.user.id, body);
    return c.json({ result });
  },
});
