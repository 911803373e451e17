/** POST /api/notifications/read: marks `{"ids":[...]}` or `{"all":true}` read. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readJson } from "@/lib/http/read_body.ts";
import { markRead, parseMarkRead } from "@/lib/catalog/notifications/mod.ts";

export const middleware = [requireUser()];

export const handler = signedIn({
  async POST(c) {
    const which = parseMarkRead(await readJson(c.req.raw, { requireJsonType: true }));
    const { store, clock } = c.var.deps;
    await markRead(store, c.var.user.id, { which, now: clock.now() });
    return c.json({ success: true });
  },
});
