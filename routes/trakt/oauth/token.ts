/**
 * POST /trakt/oauth/token: a consent code exchanged, or a refresh token rotated (docs/trakt.md,
 * "Sign-in").
 */
import { readOAuthBody } from "@/lib/http/trakt_body.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { TokenBody } from "@/lib/connections/trakt/oauth_bodies.ts";
import type { Handlers } from "@/lib/http/app_env.ts";

export const handler: Handlers = {
  async POST(c) {
    const body = parsedOr400(TokenBody, await readOAuthBody(c.req.raw), {
      code: "invalid_request",
      detail:
        "Send grant_type (authorization_code or refresh_token), client_id, client_secret and the code or refresh_token.",
    });
    return c.json(
      await c.var.services.traktAuth.token({
        grantType: body.grant_type,
        clientId: body.client_id,
        clientSecret: body.client_secret,
        code: body.code,
        refreshToken: body.refresh_token,
        redirectUri: body.redirect_uri,
      }),
    );
  },
};
