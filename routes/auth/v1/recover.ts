/** POST /auth/v1/recover: mails a password reset link; always 200 `{}` (lib/identity/auth/password_reset.ts). */
import type { Handlers } from "@/lib/http/app_env.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readGoTrueBody } from "@/lib/http/gotrue_body.ts";
import { gotrueJson } from "@/lib/http/gotrue_response.ts";
import { builtinProvider } from "@/lib/http/middleware/builtin_only.ts";

export const handler: Handlers = {
  async POST(c) {
    const provider = builtinProvider(c);
    await provider.recover(await readGoTrueBody(c.req.raw), { clientAddress: clientAddress(c) });
    return gotrueJson(c.req.raw, {});
  },
};
