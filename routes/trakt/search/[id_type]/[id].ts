/**
 * GET /trakt/search/:id_type/:id?type=movie: the stored films a trakt, tmdb or imdb id names;
 * no token needed, as on Trakt (docs/trakt.md, "Reads").
 */
import { Problem } from "@/lib/core/problem.ts";
import {
  findByTraktId,
  idResults,
  type TraktIdType,
} from "@/lib/connections/trakt/search_reads.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { fullAsked, searchTypesOf } from "@/lib/http/trakt_read.ts";

const ID_TYPES: readonly TraktIdType[] = ["trakt", "tmdb", "imdb"];

export const handler: Handlers = {
  async GET(c) {
    const idType = ID_TYPES.find((t) => t === c.req.param("id_type"));
    if (!idType) throw new Problem(404, "not_found", "Search by trakt, tmdb or imdb id.");
    if (!searchTypesOf(c).includes("movie")) return c.json([]);
    const rows = await findByTraktId(c.var.deps.store, idType, c.req.param("id")!);
    return c.json(idResults(rows, { full: fullAsked(c) }));
  },
};
