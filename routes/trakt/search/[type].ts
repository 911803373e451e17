/**
 * GET /trakt/search/:type?query=: a text search of the catalog (TMDB's, through the shared
 * window) for `movie`; shows, episodes and people read empty. No token needed, as on Trakt
 * (docs/trakt.md, "Reads").
 */
import { MAX_QUERY_LENGTH } from "@/lib/catalog/mod.ts";
import { Problem } from "@/lib/core/problem.ts";
import { searchResults } from "@/lib/connections/trakt/search_reads.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { fullAsked, pageAskOf, traktPage } from "@/lib/http/trakt_read.ts";

export const handler: Handlers = {
  async GET(c) {
    const types = c.req.param("type")!.split(",");
    const ask = pageAskOf(c);
    const query = (c.req.query("query") ?? "").trim();
    if (!types.includes("movie")) return traktPage(c, ask, { items: [], total: 0 });
    if (query === "" || query.length > MAX_QUERY_LENGTH) {
      throw new Problem(422, "invalid_value", `query is 1 to ${MAX_QUERY_LENGTH} characters.`);
    }
    const { value, headers } = await c.var.services.catalog.search(query, { wait: false });
    const limit = ask?.limit ?? 10;
    const rows = value.results.slice(((ask?.page ?? 1) - 1) * limit, (ask?.page ?? 1) * limit);
    const items = await searchResults(c.var.deps.store, rows, { full: fullAsked(c) });
    const response = traktPage(c, ask ?? { page: 1, limit }, {
      items,
      total: value.results.length,
    });
    for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
    return response;
  },
};
