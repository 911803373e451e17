/** POST /trakt/sync/history/remove: viewings removed by movie or by history id (docs/trakt.md, "Writes and scrobbles"). */
import { SyncBody } from "@/lib/connections/trakt/write_body.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { traktUserOf } from "@/lib/http/middleware/trakt_user.ts";
import { readTraktJson } from "@/lib/http/trakt_body.ts";

export const handler: Handlers = {
  async POST(c) {
    const { userId } = traktUserOf(c);
    const body = SyncBody.parse(await readTraktJson(c.req.raw));
    return c.json(await c.var.services.traktWrites.removeHistory(userId, body), 200);
  },
};
