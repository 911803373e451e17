/** POST /api/nights/:id/join: joins by the link's token (a second time changes nothing). */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { nightIdOf, readNightBody } from "@/lib/http/night_params.ts";
import { parseNightJoin } from "@/lib/recommend/night/mod.ts";

/** The user first: a 401 comes before any body parsing. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async POST(c) {
    const id = nightIdOf(c);
    const token = parseNightJoin(await readNightBody(c));
    return c.json(await c.var.services.nights.join(c.var.user.id, id, { token }));
  },
});
