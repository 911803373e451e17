/** GET/PATCH/DELETE /api/diary/:id: one viewing read, changed or removed (docs/diary.md). */
import { parseDiaryPatch } from "../../../lib/library/diary/payload.ts";
import type { Handlers } from "../../../lib/http/app_env.ts";
import { assertSignedIn, requireUser } from "../../../lib/http/middleware/require_user.ts";
import { readJson } from "../../../lib/http/read_body.ts";

/** The user first: a 401 comes before the id or the body is looked at. */
export const middleware = [requireUser()];

export const handler: Handlers = {
  async GET(c) {
    const entry = await c.var.services.diary.get(assertSignedIn(c).id, c.req.param("id") ?? "");
    return c.json({ entry });
  },
  async PATCH(c) {
    const body = await readJson(c.req.raw, { requireJsonType: true });
    const fields = parseDiaryPatch(body, c.var.deps.clock.now());
    const entry = await c.var.services.diary.update(assertSignedIn(c).id, {
      id: c.req.param("id") ?? "",
      fields,
    });
    return c.json({ entry });
  },
  async DELETE(c) {
    await c.var.services.diary.remove(assertSignedIn(c).id, c.req.param("id") ?? "");
    return c.body(null, 204);
  },
};
