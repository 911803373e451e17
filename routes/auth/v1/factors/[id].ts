/** DELETE /auth/v1/factors/:id: unenrolls a factor (supabase-js `mfa.unenroll`); a verified one needs aal2. */
import type { Handlers } from "@/lib/http/app_env.ts";
import { gotrueJson } from "@/lib/http/gotrue_response.ts";
import { builtinProvider, gotrueBearer } from "@/lib/http/middleware/builtin_only.ts";

export const handler: Handlers = {
  async DELETE(c) {
    const provider = builtinProvider(c);
    const claims = await provider.claims(gotrueBearer(c));
    return gotrueJson(c.req.raw, await provider.mfa.unenroll(claims, c.req.param("id")!));
  },
};
