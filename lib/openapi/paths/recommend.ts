/**
 * The document's parts for docs/recommend.md and docs/catalog.md: the current recommendation set,
 * dismissals ("not interested") and where to watch. Their response schemas sit here too, typed
 * against the services' own shapes, so neither can drift from the other.
 */
import { z } from "zod";
import { catalogIdParam, providersQuerySchema } from "../../catalog/params.ts";
import type { WatchProviders } from "../../catalog/providers.ts";
import { writePayloadSchema } from "../../lists/write_payload.ts";
import type { CurrentSet } from "../../recommend/current.ts";
import { MAX_DISMISSED } from "../../recommend/dismissed.ts";
import { jsonSchemaOf, pathParameter, queryParameters } from "../json_schema.ts";
import { internal, problem, rateLimitHeaders, unauthorized } from "../responses.ts";

const catalogId = z.number().int().min(1).max(2 ** 31 - 1);

/** GET /api/recommend/current. */
export const currentSetSchema = z.strictObject({
  recommendations: z.array(z.strictObject({
    catalogId,
    reason: z.string().max(200).meta({ description: "One plain-text line; empty when none." }),
    availability: z.array(z.strictObject({
      id: catalogId,
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

const provider = z.strictObject({
  name: z.string(),
  logo: z.string().meta({ description: "Logo URL at w92; empty when TMDB has none." }),
});

/** GET /api/movies/{id}/providers. */
export const watchProvidersSchema = z.strictObject({
  id: catalogId,
  region: z.string().regex(/^[A-Z]{2}$/),
  link: z.string().nullable().meta({ description: "TMDB's page for the region, or null." }),
  flatrate: z.array(provider).meta({ description: "Included with a subscription." }),
  rent: z.array(provider),
  buy: z.array(provider),
  free: z.array(provider),
  ads: z.array(provider).meta({ description: "Free with advertising." }),
});

/** The component schemas this file adds. */
export const steeringComponents = {
  CurrentSet: currentSetSchema,
  DismissedList: dismissedListSchema,
  Success: successSchema,
  WatchProviders: watchProvidersSchema,
} as const;

function ok(description: string, name: keyof typeof steeringComponents, headers?: object) {
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
    200: ok("Done.", "Success"),
    400: problem("Not JSON, no catalogId, or a bad one (`invalid_body`, `invalid_catalog_id`)."),
    401: unauthorized,
    ...extra,
    500: internal,
  },
});

/** The paths this file adds. */
export function steeringPaths(): Record<string, unknown> {
  return {
    "/api/recommend/current": {
      get: {
        summary: "The stored recommendation set with reasons; never generates, spends nothing.",
        tags: ["recommend"],
        security: bearer,
        responses: {
          200: ok("The stored set, in its order.", "CurrentSet", rateLimitHeaders),
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
        responses: { 200: ok("The ids.", "DismissedList"), 401: unauthorized, 500: internal },
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
    "/api/movies/{id}/providers": {
      get: {
        summary: "Where the movie streams, rents, sells, is free or with ads (data by JustWatch).",
        tags: ["catalog"],
        parameters: [pathParameter("id", catalogIdParam), ...queryParameters(providersQuerySchema)],
        responses: {
          200: ok(
            "The region's offers; empty lists when none.",
            "WatchProviders",
            rateLimitHeaders,
          ),
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

// Compile-time: each schema's output is the type the service returns (mutually assignable).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _current: Same<z.output<typeof currentSetSchema>, CurrentSet> = true;
const _providers: Same<z.output<typeof watchProvidersSchema>, WatchProviders> = true;
