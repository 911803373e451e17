/** GET /auth/v1/user: GoTrue's User object of the bearer. */
import type { Handlers } from "../../../lib/http/app_env.ts";
import { gotrueJson } from "../../../lib/http/gotrue_response.ts";
import { builtinProvider, gotrueBearer } from "../../../lib/http/middleware/builtin_only.ts";

export const handler: Handlers = {
  async GET(c) {
    const user = await builtinProvider(c).user(gotrueBearer(c));
    c.set("user", { id: String(user.id), email: String(user.email) });
    return gotrueJson(c.req.raw, user);
  },
};
