/** POST /auth/v1/factors/:id/verify: a right code raises the session to aal2 (supabase-js `mfa.verify`). */
import type { Handlers } from "@/lib/http/app_env.ts";
import { readGoTrueBody } from "@/lib/http/gotrue_body.ts";
import { gotrueJson } from "@/lib/http/gotrue_response.ts";
import { builtinProvider, gotrueBearer } from "@/lib/http/middleware/builtin_only.ts";

export const handler: Handlers = {
  async POST(c) {
    const provider = builtinProvider(c);
    const claims = await provider.claims(gotrueBearer(c));
    const body = await readGoTrueBody(c.req.raw);
    const session = await provider.mfa.verify(claims, c.req.param("id")!, body);
    c.set("user", { id: String(session.user.id), email: String(session.user.email) });
    return gotrueJson(c.req.raw, session);
  },
};
