/** GET /auth/v1/callback: the identity provider's answer; back to the site with a code or an error. */
import type { Handlers } from "@/lib/http/app_env.ts";
import { clearedLinkCookie, linkBinding } from "@/lib/http/link_cookie.ts";
import { builtinProvider } from "@/lib/http/middleware/builtin_only.ts";

export const handler: Handlers = {
  async GET(c) {
    const binding = linkBinding(c);
    const location = await builtinProvider(c).oidc.callback(c.req.query(), {
      linkBinding: binding,
    });
    const headers = new Headers({
      location,
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    });
    if (binding) headers.append("set-cookie", clearedLinkCookie(c));
    return new Response(null, { status: 303, headers });
  },
};
