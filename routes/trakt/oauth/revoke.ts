/**
 * POST /trakt/oauth/revoke: ends the token's authorization; 200 `{}` even for an unknown token,
 * as OAuth's revocation answers (docs/trakt.md, "Sign-in").
 */
import { readOAuthBody } from "@/lib/http/trakt_body.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { RevokeBody } from "@/lib/connections/trakt/oauth_bodies.ts";
import type { Handlers } from "@/lib/http/app_env.ts";

export const handler: Handlers = {
  async POST(c) {
    const body = parsedOr400(RevokeBody, await readOAuthBody(c.req.raw), {
      code: "invalid_request",
      detail: 'Send {"token","client_id","client_secret"}.',
    });
    await c.var.services.traktAuth.revoke({
      token: body.token,
      clientId: body.client_id,
      clientSecret: body.client_secret,
    });
    return c.json({});
  },
};
