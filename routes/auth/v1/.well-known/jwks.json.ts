/** GET /auth/v1/.well-known/jwks.json: the built-in provider's public signing key (GoTrue's JWKS). */
import type { Handlers } from "@/lib/http/app_env.ts";
import { builtinProvider } from "@/lib/http/middleware/builtin_only.ts";

export const handler: Handlers = {
  async GET(c) {
    const key = await builtinProvider(c).signingKey();
    c.header("cache-control", "public, max-age=600");
    return c.json({ keys: [key.publicJwk] });
  },
};
