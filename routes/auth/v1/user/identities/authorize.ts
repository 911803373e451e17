/**
 * GET /auth/v1/user/identities/authorize?provider=oidc: supabase-js `linkIdentity` asks, with the
 * signed-in user's Bearer token, where to send the browser to link the identity provider to the
 * account; GoTrue's answer is `{"url"}` (lib/identity/oidc, docs/oidc.md "Linking from /account"),
 * with a cookie that binds the link to this browser.
 */
import type { Handlers } from "@/lib/http/app_env.ts";
import { gotrueJson } from "@/lib/http/gotrue_response.ts";
import { linkCookie } from "@/lib/http/link_cookie.ts";
import { builtinProvider, gotrueBearer } from "@/lib/http/middleware/builtin_only.ts";

export const handler: Handlers = {
  async GET(c) {
    const link = await builtinProvider(c).linkIdentity(gotrueBearer(c), c.req.query());
    const res = gotrueJson(c.req.raw, { url: link.url });
    res.headers.set("cache-control", "no-store");
    res.headers.append("set-cookie", linkCookie(c, link.binding));
    return res;
  },
};
