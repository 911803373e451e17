/** POST /auth/v1/factors: enrols a TOTP factor (supabase-js `mfa.enroll`; lib/identity/mfa/service.ts). */
import type { Handlers } from "@/lib/http/app_env.ts";
import { readGoTrueBody } from "@/lib/http/gotrue_body.ts";
import { gotrueJson } from "@/lib/http/gotrue_response.ts";
import { builtinProvider, gotrueBearer } from "@/lib/http/middleware/builtin_only.ts";

export const handler: Handlers = {
  async POST(c) {
    const provider = builtinProvider(c);
    const claims = await provider.claims(gotrueBearer(c));
    return gotrueJson(
      c.req.raw,
      await provider.mfa.enroll(claims, await readGoTrueBody(c.req.raw)),
    );
  },
};
