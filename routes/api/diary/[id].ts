/** GET/PATCH/DELETE /api/diary/:id: one viewing read, changed or removed (docs/diary.md). */
import { parseDiaryPatch } from "@/lib/library/diary/payload.ts";
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readJson } from "@/lib/http/read_body.ts";

/** The user first: a 401 comes before the id or the body is looked at. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async GET(c) {
    const entry = await c.var.services.diary.get(c.var.user.id, c.req.param("id") ?? "");
    return c.json({ entry });
  },
  async PATCH(c) {
    const body = await readJson(c.req.raw, { requireJsonType: true });
    const fields = parseDiaryPatch(body, c.var.deps.clock.now());
    const entry = await c.var.services.diary.update(c.var.user.id, {
      id: c.req.param("id") ?? "",
      fields,
    });
    return c.json({ entry });
  },
  async DELETE(c) {
    await c.var.services.diary.remove(c.var.user.id, c.req.param("id") ?? "");
    return c.body(null, 204);
  },
});
