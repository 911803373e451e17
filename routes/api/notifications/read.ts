/** POST /api/notifications/read: marks `{"ids":[...]}` or `{"all":true}` read. */
import type { Handlers } from "../../../lib/http/app_env.ts";
import { assertSignedIn, requireUser } from "../../../lib/http/middleware/require_user.ts";
import { readJson } from "../../../lib/http/read_body.ts";
import { markRead, parseMarkRead } from "../../../lib/catalog/notifications/mod.ts";

export const middleware = [requireUser()];

export const handler: Handlers = {
  async POST(c) {
    const which = parseMarkRead(await readJson(c.req.raw, { requireJsonType: true }));
    const { store, clock } = c.var.deps;
    await markRead(store, assertSignedIn(c).id, { which, now: clock.now() });
    return c.json({ success: true });
  },
};
