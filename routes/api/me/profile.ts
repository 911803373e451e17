/** GET/PUT /api/me/profile: the user's public profile settings (off by default). */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { readListBody } from "@/lib/http/list_params.ts";
import { parseProfile } from "@/lib/library/lists/mod.ts";

/** The user first: a 401 comes before any body parsing. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async GET(c) {
    return c.json(await c.var.services.profiles.get(c.var.user.id));
  },
  async PUT(c) {
    const { user } = c.var;
    const fields = parseProfile(await readListBody(c));
    return c.json(await c.var.services.profiles.put(user.id, fields));
  },
});
