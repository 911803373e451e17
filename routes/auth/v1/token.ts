/** POST /auth/v1/token?grant_type=password|refresh_token: GoTrue's sign-in and refresh. */
import { GoTrueError } from "../../../lib/auth/gotrue_error.ts";
import type { Handlers } from "../../../lib/http/app_env.ts";
import { clientAddress } from "../../../lib/http/client_address.ts";
import { gotrueJson } from "../../../lib/http/gotrue_response.ts";
import { builtinProvider } from "../../../lib/http/middleware/builtin_only.ts";
import { readJson } from "../../../lib/http/read_body.ts";
import { Problem } from "../../../lib/problem.ts";

export const handler: Handlers = {
  async POST(c) {
    const body = await readJson(c.req.raw).catch((error) => {
      // GoTrue names an unreadable body `bad_json`, whatever the reason.
      if (error instanceof Problem) throw new GoTrueError(400, "bad_json", error.message);
      throw error;
    });
    const session = await builtinProvider(c).token(c.req.query("grant_type"), body, {
      clientAddress: clientAddress(c),
    });
    return gotrueJson(c.req.raw, session);
  },
};
