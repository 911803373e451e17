/** POST /auth/v1/token?grant_type=password|refresh_token: GoTrue's sign-in and refresh. */
import { clientAddress } from "../../../lib/auth/client_address.ts";
import { GoTrueError, gotrueHandler, gotrueJson } from "../../../lib/auth/gotrue.ts";
import { readJsonBody } from "../../../lib/auth/json_body.ts";
import type { Handlers } from "../../../lib/http/app_env.ts";
import { Problem } from "../../../lib/problem.ts";

export const handler: Handlers = {
  POST: gotrueHandler(async (c) => {
    const builtin = c.var.services.auth.builtin;
    // With SUPABASE_URL set, Supabase serves these endpoints itself.
    if (!builtin) throw new Problem(404, "not_found", "No such resource.");
    const body = await readJsonBody(c.req.raw);
    if (!body.ok) throw new GoTrueError(400, "bad_json", body.reason);
    const session = await builtin.token(c.req.query("grant_type"), body.value, {
      clientAddress: clientAddress(c),
    });
    return gotrueJson(c.req.raw, session);
  }),
};
