/** POST /auth/v1/token?grant_type=password|refresh_token: GoTrue's sign-in and refresh. */
import type { Handlers } from "@/lib/http/app_env.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readGoTrueBody } from "@/lib/http/gotrue_body.ts";
import { gotrueJson } from "@/lib/http/gotrue_response.ts";
import { builtinProvider } from "@/lib/http/middleware/builtin_only.ts";

export const handler: Handlers = {
  async POST(c) {
    const body = await readGoTrueBody(c.req.raw);
    const session = await builtinProvider(c).token(c.req.query("grant_type"), body, {
      clientAddress: clientAddress(c),
    });
    return gotrueJson(c.req.raw, session);
  },
};
