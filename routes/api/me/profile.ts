/** GET/PUT /api/me/profile: the user's public profile settings (off by default). */
import type { Handlers } from "../../../lib/http/app_env.ts";
import { assertSignedIn, requireUser } from "../../../lib/http/middleware/require_user.ts";
import { readListBody } from "../../../lib/http/user_list_params.ts";
import { parseProfile } from "../../../lib/library/lists/mod.ts";

/** The user first: a 401 comes before any body parsing. */
export const middleware = [requireUser()];

export const handler: Handlers = {
  async GET(c) {
    return c.json(await c.var.services.profiles.get(assertSignedIn(c).id));
  },
  async PUT(c) {
    const user = assertSignedIn(c);
    const fields = parseProfile(await readListBody(c));
    return c.json(await c.var.services.profiles.put(user.id, fields));
  },
};
