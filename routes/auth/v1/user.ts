/** GET /auth/v1/user: GoTrue's User object of the bearer; PUT: updates it (a new password). */
import { GoTrueError, gotrueHandler, gotrueJson } from "../../../lib/auth/gotrue.ts";
import { readJsonBody } from "../../../lib/auth/json_body.ts";
import type { Handlers } from "../../../lib/http/env.ts";
import { Problem } from "../../../lib/problem.ts";

export const handler: Handlers = {
  GET: gotrueHandler(async (c) => {
    const builtin = c.var.services.auth.builtin;
    if (!builtin) throw new Problem(404, "not_found", "No such resource.");
    const user = await builtin.user(c.req.header("authorization"));
    c.set("user", { id: String(user.id), email: String(user.email) });
    return gotrueJson(c.req.raw, user);
  }),
  PUT: gotrueHandler(async (c) => {
    const builtin = c.var.services.auth.builtin;
    if (!builtin) throw new Problem(404, "not_found", "No such resource.");
    const body = await readJsonBody(c.req.raw);
    if (!body.ok) throw new GoTrueError(400, "bad_json", body.reason);
    const user = await builtin.updateUser(c.req.header("authorization"), body.value);
    c.set("user", { id: String(user.id), email: String(user.email) });
    return gotrueJson(c.req.raw, user);
  }),
};
