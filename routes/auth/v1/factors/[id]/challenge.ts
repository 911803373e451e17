/** POST /auth/v1/factors/:id/challenge: a challenge to answer with a code (supabase-js `mfa.challenge`). */
import type { Handlers } from "@/lib/http/app_env.ts";
import { gotrueJson } from "@/lib/http/gotrue_response.ts";
import { builtinProvider, gotrueBearer } from "@/lib/http/middleware/builtin_only.ts";

export const handler: Handlers = {
  async POST(c) {
    const provider = builtinProvider(c);
    const claims = await provider.claims(gotrueBearer(c));
    return gotrueJson(c.req.raw, await provider.mfa.challenge(claims, c.req.param("id")!));
  },
};
