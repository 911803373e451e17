/** POST /auth/v1/recover: mails a password reset link; always 200 `{}` (lib/auth/password_reset.ts). */
import { clientAddress } from "../../../lib/auth/client_address.ts";
import { GoTrueError, gotrueHandler, gotrueJson } from "../../../lib/auth/gotrue.ts";
import { readJsonBody } from "../../../lib/auth/json_body.ts";
import type { Handlers } from "../../../lib/http/env.ts";
import { Problem } from "../../../lib/problem.ts";

export const handler: Handlers = {
  POST: gotrueHandler(async (c) => {
    const builtin = c.var.services.auth.builtin;
    if (!builtin) throw new Problem(404, "not_found", "No such resource.");
    const body = await readJsonBody(c.req.raw);
    if (!body.ok) throw new GoTrueError(400, "bad_json", body.reason);
    await builtin.recover(body.value, { clientAddress: clientAddress(c) });
    return gotrueJson(c.req.raw, {});
  }),
};
