/**
 * GET/POST /api/trakt/apps: the user's own Trakt apps; a new one's secret is shown once
 * (docs/trakt.md, "Sign-in").
 */
import { sessionOnly } from "@/lib/http/middleware/session_only.ts";
import { signedIn } from "@/lib/http/middleware/require_user.ts";
import { readJson } from "@/lib/http/read_body.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { CreateAppBody } from "@/lib/connections/trakt/api_bodies.ts";

export const middleware = sessionOnly();

export const handler = signedIn({
  async GET(c) {
    return c.json({ apps: await c.var.services.traktAuth.listApps(c.var.user.id) });
  },
  async POST(c) {
    const body = parsedOr400(CreateAppBody, await readJson(c.req.raw, { requireJsonType: true }), {
      code: "invalid_body",
      detail:
        'Send {"name" (1-100 characters), "redirectUris": [absolute URLs or urn:ietf:wg:oauth:2.0:oob, at most 10]}.',
    });
    const app = await c.var.services.traktAuth.createApp(c.var.user.id, body);
    // The secret is in this answer only: never cache it anywhere.
    return c.json(app, 201, { "cache-control": "no-store" });
  },
});
