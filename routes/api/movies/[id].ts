/** GET /api/movies/:id: a movie's details, from the caches when fresh, else from TMDB. */
import { z } from "zod";
import { catalogJson } from "../../../lib/catalog/json_response.ts";
import { withWindowHeaders } from "../../../lib/catalog/mod.ts";
import type { Handlers } from "../../../lib/http/env.ts";
import { Problem } from "../../../lib/problem.ts";

// A positive integer that fits Postgres `integer`, written in plain digits.
const idSchema = z.string().regex(/^\d{1,10}$/).transform(Number)
  .pipe(z.number().int().min(1).max(2 ** 31 - 1));

export const handler: Handlers = {
  GET: (c) =>
    withWindowHeaders(c, async () => {
      const id = idSchema.safeParse(c.req.param("id"));
      if (!id.success) {
        throw new Problem(
          400,
          "invalid_catalog_id",
          "The id must be a positive integer catalog id (at most 2147483647).",
        );
      }
      const { value, headers } = await c.get("services").catalog.movie(id.data);
      return catalogJson(value, headers);
    }),
};
