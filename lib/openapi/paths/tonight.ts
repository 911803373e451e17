/**
 * POST /api/tonight (routes/api/tonight.ts, docs/recommend.md "Tonight"): the body as the route
 * parses it, and the answer's schema typed against the service's own shape.
 */
import { z } from "zod";
import { catalogIdSchema as catalogId } from "@/lib/catalog/catalog_id.ts";
import { MOOD_KEYS, type TonightAnswer, tonightBodySchema } from "@/lib/recommend/tonight/mod.ts";
import { movieCardSchema } from "../schemas.ts";
import { jsonSchemaOf } from "../json_schema.ts";
import { internal, problem, unauthorized } from "../responses.ts";

/** The interpretation: what the words or the filters asked. */
const interpretationSchema = z.strictObject({
  genres: z.array(z.string()),
  excludeGenres: z.array(z.string()),
  moods: z.array(z.enum(MOOD_KEYS)),
  runtimeMax: z.number().int().min(1).max(1440).nullable(),
  yearFrom: z.number().int().min(1800).max(2200).nullable(),
  yearTo: z.number().int().min(1800).max(2200).nullable(),
  languages: z.array(z.string().regex(/^[a-z]{2}$/)),
  onlyMine: z.boolean(),
  fromMyList: z.boolean(),
  similarTo: z.array(z.strictObject({ catalogId, title: z.string() })),
});

/** The body of POST /api/tonight. */
const tonightAnswerSchema = z.strictObject({
  interpretation: interpretationSchema,
  movies: z.array(movieCardSchema.extend({ reasons: z.array(z.string()) })).max(20),
  source: z.enum(["local", "ai"]).meta({
    description: '"ai" when the AI read the words (one unit of the daily quota), else "local".',
  }),
});

/** The component schemas this file adds. */
export const tonightComponents = { TonightAnswer: tonightAnswerSchema } as const;

/** The paths this file adds. */
export function tonightPaths(): Record<string, unknown> {
  return {
    "/api/tonight": {
      post: {
        summary: "Films for tonight from words (read by the AI when one is configured) or filters.",
        tags: ["recommend"],
        security: [{ bearerAuth: [] }],
        requestBody: {
          required: false,
          description: "Words of at most 300 characters, filters (the interpretation's keys), or " +
            "both (the filters win). Filters alone never ask the AI and spend nothing.",
          content: { "application/json": { schema: jsonSchemaOf(tonightBodySchema, "input") } },
        },
        responses: {
          200: {
            description: "The interpretation, at most 20 films with their reasons, and the source.",
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/TonightAnswer" } },
            },
          },
          400: problem(
            "Not JSON (`invalid_body`), text over 300 characters or filters of the wrong keys, " +
              "types or bounds (`invalid_query`), or only what I can stream without services " +
              "(`no_services`).",
          ),
          401: unauthorized,
          429: problem(
            "The words would be read by the AI and today's quota is spent (`quota_exceeded`).",
          ),
          500: internal,
        },
      },
    },
  };
}

// Compile-time: the schema's output is the type the service returns (mutually assignable).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _tonight: Same<z.output<typeof tonightAnswerSchema>, TonightAnswer> = true;
