/**
 * POST /trakt/oauth/device/token: a device's poll, answered with the tokens once approved, else
 * Trakt's statuses (docs/trakt.md, "Sign-in").
 */
import { readOAuthBody } from "@/lib/http/trakt_body.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { DeviceTokenBody } from "@/lib/connections/trakt/oauth_bodies.ts";
import type { Handlers } from "@/lib/http/app_env.ts";

export const handler: Handlers = {
  async POST(c) {
    const body = parsedOr400(DeviceTokenBody, await readOAuthBody(c.req.raw), {
      code: "invalid_request",
      detail: 'Send {"code","client_id","client_secret"}.',
    });
    return c.json(
      await c.var.services.traktAuth.deviceToken({
        code: body.code,
        clientId: body.client_id,
        clientSecret: body.client_secret,
      }),
    );
  },
};
