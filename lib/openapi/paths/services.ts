/**
 * The document's parts for my services, availability and alerts (docs/availability.md): the
 * routes and their response schemas, typed against the services' own shapes so neither drifts.
 */
import { z } from "zod";
import { providersQuerySchema } from "../../catalog/params.ts";
import type { MyServices, RegionProvider } from "../../my_services/mod.ts";
import { MAX_PROVIDERS, servicesPutSchema } from "../../my_services/mod.ts";
import { jsonSchemaOf, queryParameters } from "../json_schema.ts";
import { internal, problem, unauthorized } from "../responses.ts";

const providerId = z.number().int().min(1).max(2 ** 31 - 1);
const region = z.string().regex(/^[A-Z]{2}$/);
const logo = z.string().meta({ description: "Logo URL at w92; empty when TMDB has none." });

/** GET and PUT /api/me/services. */
export const myServicesSchema = z.strictObject({
  region,
  providers: z.array(z.strictObject({
    id: providerId,
    name: z.string().meta({ description: "Empty when no stored movie of the region lists it." }),
    logo,
  })),
  onlyMine: z.boolean(),
  emailAlerts: z.boolean(),
});

/** GET /api/providers. */
export const regionProvidersSchema = z.strictObject({
  region,
  providers: z.array(z.strictObject({
    id: providerId,
    name: z.string(),
    logo,
    movies: z.number().int().min(1).meta({ description: "Stored movies it streams there." }),
  })).meta({ description: "Most stored movies first, then by name." }),
});

/** The component schemas this file adds. */
export const servicesComponents = {
  MyServices: myServicesSchema,
  RegionProviders: regionProvidersSchema,
} as const;

function ok(description: string, name: keyof typeof servicesComponents) {
  return {
    description,
    content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
  };
}

const bearer = [{ bearerAuth: [] }];

/** The paths this file adds. */
export function servicesPaths(): Record<string, unknown> {
  return {
    "/api/me/services": {
      get: {
        summary: "My region, my streaming providers, and the two switches.",
        tags: ["services"],
        security: bearer,
        responses: { 200: ok("My services.", "MyServices"), 401: unauthorized, 500: internal },
      },
      put: {
        summary: "Changes the fields given; the others keep their values.",
        tags: ["services"],
        security: bearer,
        requestBody: {
          required: true,
          description: `Every field optional; at most ${MAX_PROVIDERS} distinct providers.`,
          content: { "application/json": { schema: jsonSchemaOf(servicesPutSchema, "input") } },
        },
        responses: {
          200: ok("My services now.", "MyServices"),
          400: problem(
            "A region that is not an ISO 3166-1 alpha-2 code (`invalid_region`), providers " +
              `not a list of at most ${MAX_PROVIDERS} positive ids (\`invalid_providers\`), ` +
              "or a body that is not a JSON object of those fields (`invalid_body`).",
          ),
          401: unauthorized,
          500: internal,
        },
      },
    },
    "/api/providers": {
      get: {
        summary: "The streaming providers stored for a region (no external call).",
        tags: ["services"],
        parameters: queryParameters(providersQuerySchema),
        responses: {
          200: ok("Providers under flatrate, free or ads.", "RegionProviders"),
          400: problem("Not an ISO 3166-1 alpha-2 code (`invalid_region`)."),
          500: internal,
        },
      },
    },
  };
}

// Compile-time: each schema's output is the type the service returns (mutually assignable).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _mine: Same<z.output<typeof myServicesSchema>, MyServices> = true;
const _region: Same<z.output<typeof regionProvidersSchema>["providers"][number], RegionProvider> =
  true;
