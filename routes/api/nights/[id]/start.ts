/** POST /api/nights/:id/start(?reshuffle=1): the creator makes the shortlist; the vote starts. */
import { requireUser, signedIn } from "@/lib/http/middleware/require_user.ts";
import { nightIdOf, reshuffleOf } from "@/lib/http/night_params.ts";

/** The user first. */
export const middleware = [requireUser()];

export const handler = signedIn({
  async POST(c) {
    const id = nightIdOf(c);
    const reshuffle = reshuffleOf(c);
    return c.json(await c.var.services.nights.start(c.var.user.id, id, { reshuffle }));
  },
});
