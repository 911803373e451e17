/** GET /auth/v1/authorize?provider=oidc: supabase-js `signInWithOAuth` goes to the identity provider (lib/identity/oidc). */
import type { Handlers } from "@/lib/http/app_env.ts";
import { builtinProvider } from "@/lib/http/middleware/builtin_only.ts";

export const handler: Handlers = {
  async GET(c) {
    const location = await builtinProvider(c).oidc.authorize(c.req.query());
    return new Response(null, {
      status: 302,
      headers: { location, "cache-control": "no-store", "referrer-policy": "no-referrer" },
    });
  },
};
