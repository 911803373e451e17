/**
 * The recommendation paths (routes/api/recommend/, docs/recommend.md): the recommendations, the
 * daily quota, the current set and dismissals ("not interested"). The response schemas this
 * file adds sit here too, typed against the services' own shapes, so neither can drift.
 */
import { z } from "zod";
import { catalogIdSchema as catalogId } from "@/lib/catalog/catalog_id.ts";
import { writePayloadSchema } from "@/lib/library/entries/write_payload.ts";
import { providerIdSchema } from "@/lib/catalog/my_streaming/settings.ts";
import type { CurrentSet } from "@/lib/recommend/current.ts";
import { MAX_DISMISSED } from "@/lib/recommend/dismissed.ts";
import { recommendQuerySchema } from "@/lib/recommend/query.ts";
import { jsonSchemaOf, queryParameters } from "../json_schema.ts";
import { internal, ok, problem, rateLimitHeaders, unauthorized } from "../responses.ts";

/** GET /api/recommend/current. */
export const currentSetSchema = z.strictObject({
  recommendations: z.array(z.strictObject({
    catalogId,
    reason: z.string().max(200).meta({ description: "One plain-text line; empty when none." }),
    availability: z.array(z.strictObject({
      id: providerIdSchema,
      name: z.string(),
      kind: z.enum(["flatrate", "free", "ads"]),
    })).optional().meta({
      description: "Only when I have chosen services: my providers streaming it in my region.",
    }),
  })),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  fresh: z.boolean().meta({
    description: "Unexpired and made for today's watched history (GET /api/recommend serves it).",
  }),
});

/** GET /api/recommend/dismissed. */
export const dismissedListSchema = z.strictObject({
  catalogIds: z.array(catalogId).meta({ description: "Newest first." }),
});

/** POST and DELETE /api/recommend/dismissed. */
export const successSchema = z.strictObject({ success: z.literal(true) });

/** The component schemas this file adds. */
export const recommendComponents = {
  CurrentSet: currentSetSchema,
  DismissedList: dismissedListSchema,
  Success: successSchema,
} as const;

function okOwn(description: string, name: keyof typeof recommendComponents, headers?: object) {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
  };
}

const bearer = [{ bearerAuth: [] }];
const write = (summary: string, extra: Record<string, unknown> = {}) => ({
  summary,
  tags: ["recommend"],
  security: bearer,
  requestBody: {
    required: true,
    description: "The flat `{catalogId}` or nested `{movie: {catalogId}}` form; at most 16 KiB.",
    content: { "application/json": { schema: jsonSchemaOf(writePayloadSchema, "input") } },
  },
  responses: {
    200: okOwn("Done.", "Success"),
    400: problem("Not JSON, no catalogId, or a bad one (`invalid_body`, `invalid_catalog_id`)."),
    401: unauthorized,
    ...extra,
    500: internal,
  },
});

/** The paths this file adds. */
export function recommendPaths(): Record<string, unknown> {
  return {
    "/api/recommend": {
      get: {
        summary: "The user's recommendations (catalog ids), cached 7 days per user.",
        tags: ["recommend"],
        security: bearer,
        parameters: queryParameters(recommendQuerySchema),
        responses: {
          200: ok(
            "Fresh, cached, or stale with the regeneration error.",
            "RecommendResult",
            rateLimitHeaders,
          ),
          400: problem("No watched movies (`no_watched_movies`), or a bad flag (`invalid_query`)."),
          401: unauthorized,
          409: problem("A request for this user is in progress (`generation_in_progress`)."),
          429: problem("Daily generation limit reached (`quota_exceeded`)."),
          500: internal,
          502: problem("AI output unusable or too few matches (`ai_bad_output`)."),
          503: problem("No AI provider configured or none available (`ai_unavailable`)."),
        },
      },
    },
    "/api/recommend/quota": {
      get: {
        summary: "The user's daily generation quota.",
        tags: ["recommend"],
        security: bearer,
        responses: {
          200: ok("Where the quota stands.", "QuotaStatus", rateLimitHeaders),
          401: unauthorized,
          500: internal,
        },
      },
    },
    "/api/recommend/current": {
      get: {
        summary: "The stored recommendation set with reasons; never generates, spends nothing.",
        tags: ["recommend"],
        security: bearer,
        responses: {
          200: okOwn("The stored set, in its order.", "CurrentSet", rateLimitHeaders),
          401: unauthorized,
          404: problem("No set is stored yet (`no_recommendations`)."),
          500: internal,
        },
      },
    },
    "/api/recommend/dismissed": {
      get: {
        summary: "The movies the user is not interested in.",
        tags: ["recommend"],
        security: bearer,
        responses: { 200: okOwn("The ids.", "DismissedList"), 401: unauthorized, 500: internal },
      },
      post: write(
        "Not interested: the movie leaves the stored set and is never recommended again.",
        {
          400: problem(
            `Bad payload, or already ${MAX_DISMISSED} dismissed (\`too_many_dismissed\`).`,
          ),
        },
      ),
      delete: write("Undoes a dismissal."),
    },
  };
}

// Compile-time: each schema's output is the type the service returns (mutually assignable).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _current: Same<z.output<typeof currentSetSchema>, CurrentSet> = true;
