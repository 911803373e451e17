/** GET /auth/v1/user: GoTrue's User object of the bearer. */
import { gotrueHandler, gotrueJson } from "../../../lib/auth/gotrue.ts";
import type { Handlers } from "../../../lib/http/app_env.ts";
import { Problem } from "../../../lib/problem.ts";

export const handler: Handlers = {
  GET: gotrueHandler(async (c) => {
    const builtin = c.var.services.auth.builtin;
    if (!builtin) throw new Problem(404, "not_found", "No such resource.");
    const user = await builtin.user(c.req.header("authorization"));
    c.set("user", { id: String(user.id), email: String(user.email) });
    return gotrueJson(c.req.raw, user);
  }),
};
