/** POST /auth/v1/logout?scope=global|local|others: ends the bearer's session(s); 204. */
import { gotrueHandler, gotrueNoContent } from "../../../lib/auth/gotrue.ts";
import type { Handlers } from "../../../lib/http/app_env.ts";
import { Problem } from "../../../lib/problem.ts";

export const handler: Handlers = {
  POST: gotrueHandler(async (c) => {
    const builtin = c.var.services.auth.builtin;
    if (!builtin) throw new Problem(404, "not_found", "No such resource.");
    await builtin.logout(c.req.header("authorization"), c.req.query("scope"));
    return gotrueNoContent(c.req.raw);
  }),
};
