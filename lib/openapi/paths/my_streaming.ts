/**
 * The document's parts for my services, availability and alerts (docs/availability.md): the
 * routes and their response schemas, typed against the services' own shapes so neither drifts.
 */
import { z } from "zod";
import { providersQuerySchema } from "@/lib/catalog/params.ts";
import { type AvailabilityRun, availabilityStartSchema } from "@/lib/catalog/availability/mod.ts";
import type { MyStreaming, RegionProvider } from "@/lib/catalog/my_streaming/mod.ts";
import {
  markReadSchema,
  MAX_LISTED,
  type NotificationList,
} from "@/lib/catalog/notifications/mod.ts";
import { catalogIdSchema } from "@/lib/catalog/catalog_id.ts";
import {
  MAX_PROVIDERS,
  providerIdSchema as providerId,
  servicesPutSchema,
} from "@/lib/catalog/my_streaming/mod.ts";
import { jsonSchemaOf, queryParameters } from "../json_schema.ts";
import { internal, problem, retryAfterHeader, unauthorized } from "../responses.ts";

const region = z.string().regex(/^[A-Z]{2}$/);
const logo = z.string().meta({ description: "Logo URL at w92; empty when TMDB has none." });

/** GET and PUT /api/me/services. */
const myServicesSchema = z.strictObject({
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
const regionProvidersSchema = z.strictObject({
  region,
  providers: z.array(z.strictObject({
    id: providerId,
    name: z.string(),
    logo,
    movies: z.number().int().min(0).meta({
      description: "Stored movies it streams there; 0 for a service from the region's main list.",
    }),
  })).meta({
    description: "Most stored movies first, then by name. While no movie of the region has " +
      "stored providers, the region's main services from a list kept with the service " +
      "(movies 0, in TMDB's display order); [] for a region that list does not cover.",
  }),
});

const iso = z.iso.datetime();

const notificationTimes = {
  createdAt: iso,
  readAt: iso.nullable(),
};
const filmTitle = z.string().meta({
  description: "Empty when the movie's details are not stored.",
});

/** GET /api/notifications: each kind in its own shape (docs/availability.md, "Notifications"). */
const notificationListSchema = z.strictObject({
  notifications: z.array(z.discriminatedUnion("kind", [
    z.strictObject({
      id: z.uuid(),
      kind: z.literal("now_streaming"),
      catalogId: catalogIdSchema,
      title: filmTitle,
      provider: z.strictObject({ id: providerId, name: z.string(), logo }),
      region,
      ...notificationTimes,
    }),
    z.strictObject({
      id: z.uuid(),
      kind: z.enum(["in_theaters", "on_digital", "on_physical"]),
      catalogId: catalogIdSchema,
      title: filmTitle,
      provider: z.null(),
      region,
      releaseType: z.enum(["theatrical", "digital", "physical"]),
      releaseDate: z.iso.date().meta({ description: "The release's day in the region." }),
      ...notificationTimes,
    }),
    z.strictObject({
      id: z.uuid(),
      kind: z.literal("channel_disabled"),
      catalogId: z.null(),
      title: z.literal(""),
      provider: z.null(),
      region: z.null(),
      channel: z.string().meta({ description: "The name of the alert channel turned off." }),
      ...notificationTimes,
    }),
  ])).max(MAX_LISTED).meta({ description: `Newest first, at most ${MAX_LISTED}.` }),
  unread: z.number().int().min(0).meta({ description: "All unread, not only those listed." }),
});

const count = z.number().int().min(0);

/** GET /api/admin/availability-runs. */
const availabilityRunsSchema = z.strictObject({
  runs: z.array(z.strictObject({
    id: z.uuid(),
    trigger: z.enum(["manual", "cron"]),
    status: z.enum(["running", "succeeded", "failed"]),
    budget: z.number().int().min(1),
    startedAt: iso,
    finishedAt: iso.nullable(),
    moviesPlanned: count,
    moviesRefreshed: count,
    calls: count.meta({ description: "External calls made (each took a place in the window)." }),
    notifications: count,
    mails: count,
    errors: count,
    lastError: z.string().nullable(),
  })).meta({ description: "The last 20, newest first." }),
});

/** POST /api/admin/availability-runs. */
const availabilityStartedSchema = z.strictObject({
  success: z.literal(true),
  runId: z.uuid(),
  status: z.literal("running"),
});

/** POST /api/notifications/read. */
const readDoneSchema = z.strictObject({ success: z.literal(true) });

/** The component schemas this file adds. */
export const myStreamingComponents = {
  MyStreaming: myServicesSchema,
  RegionProviders: regionProvidersSchema,
  NotificationList: notificationListSchema,
  AvailabilityRuns: availabilityRunsSchema,
  AvailabilityStarted: availabilityStartedSchema,
  NotificationsRead: readDoneSchema,
} as const;

function ok(description: string, name: keyof typeof myStreamingComponents) {
  return {
    description,
    content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
  };
}

const bearer = [{ bearerAuth: [] }];
const admin = [{ adminToken: [] }];
const adminUnauthorized = problem("Missing or wrong x-admin-token (`unauthorized`).");
const adminLimited = problem(
  "20 wrong x-admin-token values from this address in 15 minutes (`rate_limited`).",
  retryAfterHeader,
);

/** The paths this file adds. */
export function myStreamingPaths(): Record<string, unknown> {
  return {
    "/api/me/services": {
      get: {
        summary: "My region, my streaming providers, and the two switches.",
        tags: ["streaming"],
        security: bearer,
        responses: { 200: ok("My services.", "MyStreaming"), 401: unauthorized, 500: internal },
      },
      put: {
        summary: "Changes the fields given; the others keep their values.",
        tags: ["streaming"],
        security: bearer,
        requestBody: {
          required: true,
          description: `Every field optional; at most ${MAX_PROVIDERS} distinct providers.`,
          content: { "application/json": { schema: jsonSchemaOf(servicesPutSchema, "input") } },
        },
        responses: {
          200: ok("My services now.", "MyStreaming"),
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
    "/api/notifications": {
      get: {
        summary: "My alerts (a saved movie now streams on one of my services), newest first.",
        tags: ["streaming"],
        security: bearer,
        parameters: [{
          name: "unread",
          in: "query",
          required: false,
          description: "true: only unread ones.",
          schema: { type: "string", enum: ["true", "false"] },
        }],
        responses: {
          200: ok("The alerts and the unread count.", "NotificationList"),
          400: problem("unread other than true or false (`invalid_query`)."),
          401: unauthorized,
          500: internal,
        },
      },
    },
    "/api/notifications/read": {
      post: {
        summary: "Marks some alerts, or all, read.",
        tags: ["streaming"],
        security: bearer,
        requestBody: {
          required: true,
          description: '`{"ids":[...]}` or `{"all":true}`; ids of others are ignored.',
          content: { "application/json": { schema: jsonSchemaOf(markReadSchema, "input") } },
        },
        responses: {
          200: ok("Done.", "NotificationsRead"),
          400: problem("Neither form (`invalid_body`)."),
          401: unauthorized,
          500: internal,
        },
      },
    },
    "/api/admin/availability-runs": {
      get: {
        summary: "The availability job's recent runs.",
        tags: ["admin"],
        security: admin,
        responses: {
          200: ok("The runs.", "AvailabilityRuns"),
          401: adminUnauthorized,
          429: adminLimited,
          500: internal,
        },
      },
      post: {
        summary: "Starts an availability run now (in the background).",
        tags: ["admin"],
        security: admin,
        requestBody: {
          required: false,
          description: 'Empty, `{}`, or `{"force":true}` to refresh every planned movie, those ' +
            "fetched in the last 20 hours included.",
          content: {
            "application/json": { schema: jsonSchemaOf(availabilityStartSchema, "input") },
          },
        },
        responses: {
          202: ok("Started.", "AvailabilityStarted"),
          400: problem('A body other than empty, `{}` or `{"force": boolean}` (`invalid_body`).'),
          401: adminUnauthorized,
          409: problem("A run is going on (`availability_running`)."),
          429: adminLimited,
          500: internal,
        },
      },
    },
    "/api/providers": {
      get: {
        summary: "The streaming providers stored for a region, else its main services (no " +
          "external call).",
        tags: ["streaming"],
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
const _mine: Same<z.output<typeof myServicesSchema>, MyStreaming> = true;
const _notes: Same<z.output<typeof notificationListSchema>, NotificationList> = true;
const _runs: Same<z.output<typeof availabilityRunsSchema>["runs"][number], AvailabilityRun> = true;
const _region: Same<z.output<typeof regionProvidersSchema>["providers"][number], RegionProvider> =
  true;
