/** POST /api/auth/signup: creates an account (rules in lib/identity/auth/signup.ts). */
import { refuseWhenClosed } from "@/lib/identity/access/admission.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readJson } from "@/lib/http/read_body.ts";

export const handler: Handlers = {
  async POST(c) {
    refuseWhenClosed(c.var.deps);
    const body = await readJson(c.req.raw, { requireJsonType: true });
    const user = await c.var.services.auth.signUp(body, { clientAddress: clientAddress(c) });
    // When a confirmation link was mailed (SMTP set): the form tells the person to open it.
    const sent = user.confirmationSentAt ? { confirmationSentAt: user.confirmationSentAt } : {};
    return c.json({ success: true, user: { id: user.id, email: user.email, ...sent } }, 201);
  },
};
