/** POST /auth/v1/logout?scope=global|local|others: ends the bearer's session(s); 204. */
import type { Handlers } from "@/lib/http/app_env.ts";
import { gotrueNoContent } from "@/lib/http/gotrue_response.ts";
import { builtinProvider, gotrueBearer } from "@/lib/http/middleware/builtin_only.ts";

export const handler: Handlers = {
  async POST(c) {
    await builtinProvider(c).logout(gotrueBearer(c), { scope: c.req.query("scope") });
    return gotrueNoContent(c.req.raw);
  },
};
