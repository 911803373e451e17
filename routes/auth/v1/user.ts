/** GET /auth/v1/user: GoTrue's User object of the bearer; PUT: updates it (a new password). */
import type { Handlers } from "@/lib/http/app_env.ts";
import { readGoTrueBody } from "@/lib/http/gotrue_body.ts";
import { gotrueJson } from "@/lib/http/gotrue_response.ts";
import { builtinProvider, gotrueBearer } from "@/lib/http/middleware/builtin_only.ts";

export const handler: Handlers = {
  async GET(c) {
    const user = await builtinProvider(c).user(gotrueBearer(c));
    c.set("user", { id: String(user.id), email: String(user.email) });
    return gotrueJson(c.req.raw, user);
  },
  async PUT(c) {
    const provider = builtinProvider(c);
    const token = gotrueBearer(c);
    const user = await provider.updateUser(token, await readGoTrueBody(c.req.raw));
    c.set("user", { id: String(user.id), email: String(user.email) });
    return gotrueJson(c.req.raw, user);
  },
};
