/** POST /api/nights/:id/votes: a member's yes or no on a film of the shortlist. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { nightIdOf, readNightBody } from "@/lib/http/night_params.ts";
import { parseNightVote } from "@/lib/recommend/night/mod.ts";

/** The user first: a 401 comes before any body parsing. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async POST(c) {
    const id = nightIdOf(c);
    const vote = parseNightVote(await readNightBody(c));
    return c.json(await c.var.services.nights.vote(c.var.user.id, id, vote));
  },
});
