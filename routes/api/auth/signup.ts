/** POST /api/auth/signup: creates an account (rules in lib/auth/signup.ts). */
import { clientAddress } from "../../../lib/auth/client_address.ts";
import { readJsonBody } from "../../../lib/auth/json_body.ts";
import type { Handlers } from "../../../lib/http/app_env.ts";

export const handler: Handlers = {
  async POST(c) {
    const body = await readJsonBody(c.req.raw, { requireJsonType: true });
    const user = await c.var.services.auth.signUp(body, { clientAddress: clientAddress(c) });
    return c.json({ success: true, user: { id: user.id, email: user.email } }, 201);
  },
};
