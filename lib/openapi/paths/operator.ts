/** The operators' paths of the document: the admin catalog import, health, and the document itself. */
import { healthQuerySchema } from "@/lib/platform/health/report.ts";
import { importBodySchema } from "@/lib/catalog/import/body.ts";
import { jsonSchemaOf, queryParameters } from "../json_schema.ts";
import { internal, ok, problem, ref, retryAfterHeader } from "../responses.ts";

const admin = [{ adminToken: [] }];

const adminLimited = problem(
  "20 wrong x-admin-token values from this address in 15 minutes (`rate_limited`).",
  retryAfterHeader,
);

/** The admin, health and document paths. */
export function operatorPaths(): Record<string, unknown> {
  return {
    "/api/admin/catalog-import": {
      get: {
        summary: "The last 20 import runs, newest first.",
        tags: ["admin"],
        security: admin,
        responses: {
          200: ok("The runs.", "ImportRuns"),
          401: problem("Missing or wrong x-admin-token, or ADMIN_TOKEN unset (`unauthorized`)."),
          429: adminLimited,
          500: internal,
        },
      },
      post: {
        summary: "Starts a catalog import in the background.",
        tags: ["admin"],
        security: admin,
        requestBody: {
          required: false,
          description: "Empty (5 pages) or the pages of the popular feed to import.",
          content: { "application/json": { schema: jsonSchemaOf(importBodySchema, "input") } },
        },
        responses: {
          202: ok("Started.", "ImportStarted"),
          400: problem("Not JSON, over 16 KiB, or not `{pages: 1-25}` (`invalid_body`)."),
          401: problem("Missing or wrong x-admin-token, or ADMIN_TOKEN unset (`unauthorized`)."),
          409: problem("An import is already running (`import_running`)."),
          429: adminLimited,
          500: internal,
        },
      },
    },
    "/api/health": {
      get: {
        summary: "Ready: migrations applied and KV open; with deep=1, the operator's report.",
        tags: ["operator"],
        // The cheap check needs nothing; the deep report needs the admin token.
        security: [{}, ...admin],
        parameters: queryParameters(healthQuerySchema),
        responses: {
          200: {
            description: "Ready (or, with deep=1, every check ok).",
            content: {
              "application/json": { schema: { oneOf: [ref("Health"), ref("HealthReport")] } },
            },
          },
          400: problem("deep is not 1, true, 0 or false (`invalid_query`)."),
          401: problem("deep=1 without the right x-admin-token (`unauthorized`)."),
          429: adminLimited,
          503: {
            description: "Not ready, or the store did not answer within 2 s (`not_ready`, with " +
              "Retry-After), or " +
              "with deep=1 a failing check (`unhealthy`, the whole report in `report`).",
            content: {
              "application/problem+json": {
                schema: {
                  allOf: [ref("Problem"), {
                    type: "object",
                    properties: { report: ref("HealthReport") },
                  }],
                },
              },
            },
          },
        },
      },
    },
    "/api/openapi.json": {
      get: {
        summary: "This document.",
        tags: ["operator"],
        responses: {
          200: {
            description: "OpenAPI 3.1 document.",
            content: { "application/json": { schema: { type: "object" } } },
          },
        },
      },
    },
  };
}
