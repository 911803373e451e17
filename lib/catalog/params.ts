/** Query and path parameters of the catalog routes, shared with the OpenAPI document. */
import { z } from "zod";
import { catalogIdSchema } from "./catalog_id.ts";
import { regionCode } from "../core/regions.ts";
import { MAX_PAGE } from "./service.ts";

/** The longest query accepted (TMDB titles are far shorter; longer is a client bug or abuse). */
export const MAX_QUERY_LENGTH = 200;

/** A list page as a query string value: plain digits, 1 to 500 (TMDB serves no further). */
export const pageParam = z.string().regex(/^\d{1,3}$/).transform(Number)
  .pipe(z.number().int().min(1).max(MAX_PAGE))
  // The range sits behind the transform, which JSON Schema cannot follow; say it in words.
  .meta({ description: `Page number, an integer from 1 to ${MAX_PAGE}.` });

/** A catalog id in a path: plain digits, a positive integer that fits Postgres `integer`. */
export const catalogIdParam = z.string().regex(/^\d{1,10}$/).transform(Number)
  .pipe(catalogIdSchema)
  .meta({ description: "Catalog id, an integer from 1 to 2147483647." });

/** GET /api/movies/search. */
export const searchQuerySchema = z.object({
  q: z.string().trim().min(1).max(MAX_QUERY_LENGTH)
    .meta({ description: `Search text, 1 to ${MAX_QUERY_LENGTH} characters after trimming.` }),
  year: z.string().regex(/^\d{4}$/).transform(Number).optional()
    .meta({ description: "Release year, YYYY." }),
  page: pageParam.optional(),
  include: z.enum(["unlisted"]).optional().meta({
    description: "`unlisted`: also answer `unlisted`, the rows `results` leaves out (no poster, " +
      "release date or rating), as the website's search shows them after the rest.",
  }),
});

/** GET /api/movies/popular. */
export const popularQuerySchema = z.object({
  page: pageParam.optional().default(1)
    .meta({ description: `Page number, an integer from 1 to ${MAX_PAGE}; 1 when absent.` }),
});

/** GET /api/movies/:id/providers: `region` an ISO 3166-1 alpha-2 code (any case), upper-cased. */
export const providersQuerySchema = z.object({
  region: z.string().regex(/^[A-Za-z]{2}$/).transform((v, ctx) => {
    const code = regionCode(v);
    if (!code) ctx.addIssue({ code: "custom", message: "not an ISO 3166-1 alpha-2 code" });
    return code ?? "";
  }).optional()
    .meta({
      description: "ISO 3166-1 alpha-2 country code; WATCH_REGION (default US) when absent.",
    }),
});
