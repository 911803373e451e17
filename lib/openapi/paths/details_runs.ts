/**
 * The document's parts for the details job's runs (docs/catalog.md, "The details job"), shaped
 * as the availability job's (lib/openapi/paths/my_streaming.ts) and typed against the service's
 * own run, so neither drifts.
 */
import { z } from "zod";
import type { DetailsRun } from "@/lib/catalog/details/mod.ts";
import { internal, problem, retryAfterHeader } from "../responses.ts";

const iso = z.iso.datetime();
const count = z.number().int().min(0);

/** GET /api/admin/details-runs. */
const detailsRunsSchema = z.strictObject({
  runs: z.array(z.strictObject({
    id: z.uuid(),
    trigger: z.enum(["manual", "cron", "asked"]).meta({
      description: "`asked`: an import, a webhook or an AI round stored films without details.",
    }),
    status: z.enum(["running", "succeeded", "failed"]),
    budget: z.number().int().min(1),
    startedAt: iso,
    finishedAt: iso.nullable(),
    moviesPlanned: count,
    moviesRefreshed: count,
    calls: count.meta({ description: "External calls made (each took a place in the window)." }),
    errors: count,
    lastError: z.string().nullable(),
  })).meta({ description: "The last 20, newest first." }),
});

/** POST /api/admin/details-runs. */
const detailsStartedSchema = z.strictObject({
  success: z.literal(true),
  runId: z.uuid(),
  status: z.literal("running"),
});

/** The component schemas this file adds. */
export const detailsRunsComponents = {
  DetailsRuns: detailsRunsSchema,
  DetailsStarted: detailsStartedSchema,
} as const;

function ok(description: string, name: keyof typeof detailsRunsComponents) {
  return {
    description,
    content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
  };
}

const admin = [{ adminToken: [] }];
const adminUnauthorized = problem("Missing or wrong x-admin-token (`unauthorized`).");
const adminLimited = problem(
  "20 wrong x-admin-token values from this address in 15 minutes (`rate_limited`).",
  retryAfterHeader,
);

/** The paths this file adds. */
export function detailsRunsPaths(): Record<string, unknown> {
  return {
    "/api/admin/details-runs": {
      get: {
        summary: "The details job's recent runs.",
        tags: ["admin"],
        security: admin,
        responses: {
          200: ok("The runs.", "DetailsRuns"),
          401: adminUnauthorized,
          429: adminLimited,
          500: internal,
        },
      },
      post: {
        summary: "Starts a details run now (in the background).",
        tags: ["admin"],
        security: admin,
        responses: {
          202: ok("Started.", "DetailsStarted"),
          400: problem("A body that is not empty (`invalid_body`)."),
          401: adminUnauthorized,
          409: problem("A run is going on (`details_running`)."),
          429: adminLimited,
          500: internal,
        },
      },
    },
  };
}

// Compile-time: the schema's output is the type the service returns (mutually assignable).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _runs: Same<z.output<typeof detailsRunsSchema>["runs"][number], DetailsRun> = true;
