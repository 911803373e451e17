/**
 * The catalog's paths (routes/api/movies/): search, the popular feed, a movie's details and where
 * it streams (docs/catalog.md), with the where-to-watch answer's schema beside them, typed against
 * the catalog's own shape so neither can drift from the other.
 */
import { z } from "zod";
import { catalogIdSchema } from "@/lib/catalog/catalog_id.ts";
import {
  catalogIdParam,
  popularQuerySchema,
  providersQuerySchema,
  searchQuerySchema,
} from "@/lib/catalog/params.ts";
import type { WatchProviders } from "@/lib/catalog/providers.ts";
import { pathParameter, queryParameters } from "../json_schema.ts";
import { ok, problem, rateLimitHeaders } from "../responses.ts";

const provider = z.strictObject({
  name: z.string(),
  logo: z.string().meta({ description: "Logo URL at w92; empty when TMDB has none." }),
});

/** GET /api/movies/{id}/providers. */
export const watchProvidersSchema = z.strictObject({
  id: catalogIdSchema,
  region: z.string().regex(/^[A-Z]{2}$/),
  link: z.string().nullable().meta({ description: "TMDB's page for the region, or null." }),
  flatrate: z.array(provider).meta({ description: "Included with a subscription." }),
  rent: z.array(provider),
  buy: z.array(provider),
  free: z.array(provider),
  ads: z.array(provider).meta({ description: "Free with advertising." }),
});

/** The component schemas this file adds. */
export const moviesComponents = { WatchProviders: watchProvidersSchema } as const;

/** The /api/movies paths. */
export function moviesPaths(): Record<string, unknown> {
  return {
    "/api/movies/search": {
      get: {
        summary: "Searches the external movie database.",
        tags: ["catalog"],
        parameters: queryParameters(searchQuerySchema),
        responses: {
          200: ok("Rows with poster, release date and votes.", "SearchResults", rateLimitHeaders),
          400: problem("q missing or empty, or a bad year or page (`invalid_query`)."),
          429: problem("The shared external window is full (`rate_limited`)."),
          500: problem("No API key configured, or an upstream or internal failure."),
          502: problem("Unexpected answer from the external database (`upstream_bad_response`)."),
        },
      },
    },
    "/api/movies/popular": {
      get: {
        summary: "A page of the popular feed, cached 6 hours per page.",
        tags: ["catalog"],
        parameters: queryParameters(popularQuerySchema),
        responses: {
          200: ok("The page.", "PopularPage", rateLimitHeaders),
          400: problem("page is not an integer from 1 to 500 (`invalid_query`)."),
          500: problem("No API key configured, or an upstream or internal failure."),
          502: problem("Unexpected answer from the external database (`upstream_bad_response`)."),
          503: problem("The shared external window stayed full for 5 s (`upstream_busy`)."),
        },
      },
    },
    "/api/movies/{id}": {
      get: {
        summary: "A movie's details, from the movies store when fresh, else fetched.",
        tags: ["catalog"],
        parameters: [pathParameter("id", catalogIdParam)],
        responses: {
          200: ok("The detail.", "MovieDetail", rateLimitHeaders),
          400: problem("id is not an integer from 1 to 2147483647 (`invalid_catalog_id`)."),
          404: problem("The external database has no such movie (`movie_not_found`)."),
          500: problem("External database or store failure."),
          502: problem("Unexpected answer from the external database (`upstream_bad_response`)."),
          503: problem("The shared external window stayed full for 5 s (`upstream_busy`)."),
        },
      },
    },
    "/api/movies/{id}/providers": {
      get: {
        summary: "Where the movie streams, rents, sells, is free or with ads (data by JustWatch).",
        tags: ["catalog"],
        parameters: [pathParameter("id", catalogIdParam), ...queryParameters(providersQuerySchema)],
        responses: {
          200: {
            description: "The region's offers; empty lists when none.",
            headers: rateLimitHeaders,
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/WatchProviders" } },
            },
          },
          400: problem("A bad id (`invalid_catalog_id`) or region (`invalid_region`)."),
          404: problem("The external database has no such movie (`movie_not_found`)."),
          500: problem("External database or store failure, with nothing stored."),
          502: problem("Unexpected answer from the external database (`upstream_bad_response`)."),
          503: problem("The shared external window stayed full for 5 s (`upstream_busy`)."),
        },
      },
    },
  };
}

// Compile-time: the schema's output is the type the service returns (mutually assignable).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _providers: Same<z.output<typeof watchProvidersSchema>, WatchProviders> = true;
