/** POST /api/nights: a new movie night with its join link (docs/nights.md). */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readNightBody } from "@/lib/http/night_params.ts";
import { parseNightCreate } from "@/lib/recommend/night/mod.ts";

/** The user first: a 401 comes before any body parsing. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async POST(c) {
    const fields = parseNightCreate(await readNightBody(c, { allowEmpty: true }));
    return c.json(await c.var.services.nights.create(c.var.user.id, fields), 201);
  },
});
