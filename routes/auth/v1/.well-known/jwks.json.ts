/** GET /auth/v1/.well-known/jwks.json: the built-in provider's public signing key (GoTrue's JWKS). */
import type { Handlers } from "../../../../lib/http/app_env.ts";
import { Problem } from "../../../../lib/problem.ts";

export const handler: Handlers = {
  async GET(c) {
    const { deps, services } = c.var;
    // With SUPABASE_URL set, Supabase is the provider and publishes its own keys.
    if (deps.config.supabase) throw new Problem(404, "not_found", "No such resource.");
    const key = await services.auth.signingKey();
    c.header("cache-control", "public, max-age=600");
    return c.json({ keys: [key.publicJwk] });
  },
};
