/**
 * The local recommender's paths (docs/recommend.md, "Local picks"): local picks, "more like
 * this" and 👍/👎, with their answers typed against the service's own shapes.
 */
import { z } from "zod";
import { catalogIdSchema as catalogId } from "@/lib/catalog/catalog_id.ts";
import { catalogIdParam } from "@/lib/catalog/mod.ts";
import { localQuerySchema, similarQuerySchema } from "@/lib/recommend/local/query.ts";
import type { SimilarCard } from "@/lib/recommend/local/mod.ts";
import { movieCardSchema } from "../schemas.ts";
import { jsonSchemaOf, pathParameter, queryParameters } from "../json_schema.ts";
import { internal, problem, unauthorized } from "../responses.ts";

const reasons = z.array(z.string()).meta({
  description: "Only what the score used: the user's own films and the shared features.",
});

/** GET /api/recommend/local. */
const localPicksSchema = z.strictObject({
  source: z.literal("local"),
  recommendations: z.array(z.strictObject({
    catalogId,
    score: z.number().meta({ description: "Higher is better; the list is in descending score." }),
    reasons,
  })).max(50),
});

const similarCardSchema = movieCardSchema.omit({ availability: true }).extend({ reasons });

/** GET /api/movies/:id/similar. */
const similarSchema = z.strictObject({ movies: z.array(similarCardSchema).max(24) });

const feedbackBody = z.strictObject({
  catalogId,
  value: z.union([z.literal(1), z.literal(-1)]).meta({ description: "1 👍, -1 👎 (dismisses)." }),
});

/** The component schemas this file adds. */
export const localRecommendComponents = {
  LocalPicks: localPicksSchema,
  SimilarMovies: similarSchema,
} as const;

const json = (name: keyof typeof localRecommendComponents) => ({
  "application/json": { schema: { $ref: `#/components/schemas/${name}` } },
});
const success = {
  description: "Done.",
  content: { "application/json": { schema: { $ref: "#/components/schemas/Success" } } },
};
const bearer = [{ bearerAuth: [] }];

/** The paths this file adds. */
export function localRecommendPaths(): Record<string, unknown> {
  return {
    "/api/recommend/local": {
      get: {
        summary: "Local picks from stored data: no AI, no quota, nothing written.",
        tags: ["recommend"],
        security: bearer,
        parameters: queryParameters(localQuerySchema),
        responses: {
          200: { description: "Best first; spends no quota.", content: json("LocalPicks") },
          400: problem(
            "A bad limit, flag or genre (`invalid_query`), or onlyMine without services (`no_services`).",
          ),
          401: unauthorized,
          500: internal,
        },
      },
    },
    "/api/movies/{id}/similar": {
      get: {
        summary: "More like this: stored movies sharing the most with this one (no external call).",
        tags: ["catalog"],
        parameters: [pathParameter("id", catalogIdParam), ...queryParameters(similarQuerySchema)],
        responses: {
          200: {
            description: "Best first; never the movie itself.",
            content: json("SimilarMovies"),
          },
          400: problem("A bad id (`invalid_catalog_id`) or limit (`invalid_query`)."),
          404: problem("No stored movie has this id (`movie_not_found`)."),
          500: internal,
        },
      },
    },
    "/api/recommend/feedback": {
      post: {
        summary: "👍 or 👎 on a pick; 👎 also dismisses it.",
        tags: ["recommend"],
        security: bearer,
        requestBody: {
          required: true,
          content: { "application/json": { schema: jsonSchemaOf(feedbackBody, "input") } },
        },
        responses: {
          200: success,
          400: problem(
            "Not JSON or a bad value (`invalid_body`), a bad id (`invalid_catalog_id`).",
          ),
          401: unauthorized,
          500: internal,
        },
      },
      delete: {
        summary: "Takes a 👍 or 👎 back; undoing a 👎 removes its dismissal.",
        tags: ["recommend"],
        security: bearer,
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: jsonSchemaOf(feedbackBody.pick({ catalogId: true }), "input"),
            },
          },
        },
        responses: {
          200: success,
          400: problem("Not JSON (`invalid_body`), a bad id (`invalid_catalog_id`)."),
          401: unauthorized,
          500: internal,
        },
      },
    },
  };
}

// Compile-time: the schema's output is the type the service returns (mutually assignable).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _similar: Same<z.output<typeof similarCardSchema>, SimilarCard> = true;
