/** The bodies of the /trakt/oauth routes, as Trakt's clients send them (docs/trakt.md, "Sign-in"). */
import { z } from "zod";

const id = z.string().trim().min(1).max(200);
const optional = z.string().max(4000).optional();

/** POST /trakt/oauth/device/code. */
export const DeviceCodeBody = z.object({ client_id: id });

/** POST /trakt/oauth/device/token. */
export const DeviceTokenBody = z.object({
  code: z.string().min(1).max(200),
  client_id: id,
  client_secret: optional,
});

/** POST /trakt/oauth/token. */
export const TokenBody = z.object({
  grant_type: z.enum(["authorization_code", "refresh_token"]),
  client_id: id,
  client_secret: optional,
  code: optional,
  refresh_token: optional,
  redirect_uri: optional,
});

/** POST /trakt/oauth/revoke. */
export const RevokeBody = z.object({
  token: z.string().min(1).max(200),
  client_id: id,
  client_secret: optional,
});
