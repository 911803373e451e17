/** GET /api/movies/:id: a movie's details, from the caches when fresh, else from TMDB. */
import { catalogIdParam } from "@/lib/catalog/mod.ts";
import type { Handlers } from "@/lib/http/app_env.ts";
import { catalogJson } from "@/lib/http/catalog_json.ts";
import { withWindowHeaders } from "@/lib/http/window_headers.ts";
import { Problem } from "@/lib/core/problem.ts";

// An id written as zod would print it (no sign, no leading zero). Only a valid id is ever hot in
// the cache, so probing it with such a string needs no schema; anything else is parsed below.
const CANONICAL_ID = /^[1-9]\d{0,9}$/;

export const handler: Handlers = {
  GET(c) {
    const raw = c.req.param("id") ?? "";
    // A detail hot in this instance is answered at once, without a promise to wait on.
    const hot = CANONICAL_ID.test(raw)
      ? c.get("services").catalog.hotMovie(Number(raw))
      : undefined;
    if (hot) return catalogJson(hot.value, hot.headers);
    const id = catalogIdParam.safeParse(raw);
    return withWindowHeaders(c, async () => {
      if (!id.success) {
        throw new Problem(
          400,
          "invalid_catalog_id",
          "The id must be a positive integer catalog id (at most 2147483647).",
        );
      }
      const { value, headers } = await c.get("services").catalog.movie(id.data);
      return catalogJson(value, headers);
    });
  },
};
