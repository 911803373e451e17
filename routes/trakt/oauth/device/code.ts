/** POST /trakt/oauth/device/code: a device code for any client id (docs/trakt.md, "Sign-in"). */
import { readOAuthBody } from "@/lib/http/trakt_body.ts";
import { parsedOr400 } from "@/lib/http/validate.ts";
import { DeviceCodeBody } from "@/lib/connections/trakt/oauth_bodies.ts";
import type { Handlers } from "@/lib/http/app_env.ts";

export const handler: Handlers = {
  async POST(c) {
    const body = parsedOr400(DeviceCodeBody, await readOAuthBody(c.req.raw), {
      code: "invalid_request",
      detail: 'Send {"client_id"}.',
    });
    return c.json(await c.var.services.traktAuth.deviceCode(body.client_id));
  },
};
