/** GET /auth/v1/callback: the identity provider's answer; back to the site with a code or an error. */
import type { Handlers } from "@/lib/http/app_env.ts";
import { builtinProvider } from "@/lib/http/middleware/builtin_only.ts";

export const handler: Handlers = {
  async GET(c) {
    const location = await builtinProvider(c).oidc.callback(c.req.query());
    return new Response(null, {
      status: 303,
      headers: { location, "cache-control": "no-store", "referrer-policy": "no-referrer" },
    });
  },
};
