/** GET/POST /api/diary: the user's viewings, newest first, and logging one (docs/diary.md). */
import { parseDiaryPost, parseDiaryQuery } from "@/lib/library/diary/payload.ts";
import { searchParams } from "@/lib/http/entry_payloads.ts";
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readJson } from "@/lib/http/read_body.ts";

/** The user first: a 401 comes before the query or the body is looked at. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async GET(c) {
    const query = parseDiaryQuery(searchParams(c.req.raw));
    return c.json(await c.var.services.diary.page(c.var.user.id, query));
  },
  async POST(c) {
    const body = await readJson(c.req.raw, { requireJsonType: true });
    const viewing = parseDiaryPost(body, c.var.deps.clock.now());
    const { entry, created } = await c.var.services.diary.log(c.var.user.id, {
      ...viewing,
      source: "manual",
    });
    return c.json({ entry }, created ? 201 : 200);
  },
});
