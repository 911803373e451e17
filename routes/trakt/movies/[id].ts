/**
 * GET /trakt/movies/:id: a stored film by trakt id, IMDb id or slug; no token needed, as on
 * Trakt (docs/trakt.md, "Reads").
 */
import { Problem } from "@/lib/core/problem.ts";
import { traktMovie } from "@/lib/connections/trakt/movie_object.ts";
import { findMovie } from "@/lib/connections/trakt/search_reads.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { fullAsked } from "@/lib/http/trakt_read.ts";

export const handler: Handlers = {
  async GET(c) {
    const row = await findMovie(c.var.deps.store, c.req.param("id")!);
    if (!row) throw new Problem(404, "not_found", "No stored movie has this id or slug.");
    return c.json(traktMovie(row, { full: fullAsked(c) }));
  },
};
