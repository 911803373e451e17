/**
 * GET /trakt/sync/history: every history item; movies only here, so /sync/history/movies
 * (docs/trakt.md, "Reads").
 * POST /trakt/sync/history: one diary viewing per movie and day (docs/trakt.md, "Writes and scrobbles").
 */
import { SyncBody } from "@/lib/connections/trakt/write_body.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { traktUserOf } from "@/lib/http/middleware/trakt_user.ts";
import { readTraktJson } from "@/lib/http/trakt_body.ts";
import { historyPage } from "@/lib/http/trakt_read.ts";

export const handler: Handlers = {
  GET: (c) => historyPage(c, undefined),
  async POST(c) {
    const { userId } = traktUserOf(c);
    const body = SyncBody.parse(await readTraktJson(c.req.raw));
    return c.json(await c.var.services.traktWrites.addHistory(userId, body), 201);
  },
};
