/**
 * The OpenAPI 3.1 document of /api (GET /api/openapi.json), built from the zod schemas the
 * routes parse with and the response schemas of ./schemas.ts (docs/openapi.md).
 */
import { componentSchemas } from "./json_schema.ts";
import { withBounds } from "./bounds.ts";
import { accountPaths } from "./paths/account.ts";
import { historyPaths } from "./paths/history.ts";
import { entriesPaths } from "./paths/entries.ts";
import { moviesComponents, moviesPaths } from "./paths/movies.ts";
import { operatorPaths } from "./paths/operator.ts";
import { diaryComponents, diaryPaths } from "./paths/diary.ts";
import { headerComponents, withSharedResponses } from "./responses.ts";
import { responseComponents } from "./schemas.ts";
import { recommendComponents, recommendPaths } from "./paths/recommend.ts";
import { tonightComponents, tonightPaths } from "./paths/tonight.ts";
import { localRecommendComponents, localRecommendPaths } from "./paths/local_recommend.ts";
import { adminInvitesComponents, adminInvitesPaths } from "./paths/admin_invites.ts";
import {
  personalTokenScheme,
  tokenComponents,
  tokenPaths,
  withPersonalTokens,
} from "./paths/tokens.ts";
import { historyImportComponents, historyImportPaths } from "./paths/history_import.ts";
import { listsComponents, listsPaths } from "./paths/lists.ts";
import { myStreamingComponents, myStreamingPaths } from "./paths/my_streaming.ts";
import { connectionsComponents, connectionsPaths } from "./paths/connections.ts";
import { detailsRunsComponents, detailsRunsPaths } from "./paths/details_runs.ts";
import { traktComponents, traktPaths } from "./paths/trakt.ts";
import { calendarComponents, calendarPaths } from "./paths/calendar.ts";
import { nightsComponents, nightsPaths } from "./paths/nights.ts";
import { pushComponents, pushPaths } from "./paths/push.ts";
import { alertsComponents, alertsPaths } from "./paths/alerts.ts";

/** Builds the document afresh (tests; the route serves the cached one). */
export function buildOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    // zod emits draft 2020-12, which OpenAPI 3.1's default dialect (its base vocabulary on top
    // of 2020-12) reads as it is; naming the plain 2020-12 dialect made Swagger UI refuse it.
    info: {
      title: "Movies API",
      version: "1.0.0",
      description:
        "Watched list, My List, history import and export, catalog lookups, AI recommendations, signup, " +
        "and the admin catalog import. Every error is application/problem+json (RFC 9457). " +
        "A method a route does not offer answers 405 with Allow.",
    },
    servers: [{ url: "/" }],
    tags: [
      "entries",
      "lists",
      "history",
      "catalog",
      "recommend",
      "tokens",
      "connections",
      "auth",
      "admin",
      "operator",
      "streaming",
    ].map((
      name,
    ) => ({
      name,
    })),
    paths: withBounds(
      withPersonalTokens(
        withSharedResponses({
          ...entriesPaths(),
          ...historyPaths(),
          ...moviesPaths(),
          ...recommendPaths(),
          ...tonightPaths(),
          ...localRecommendPaths(),
          ...accountPaths(),
          ...operatorPaths(),
          ...adminInvitesPaths(),
          ...diaryPaths(),
          ...historyImportPaths(),
          ...listsPaths(),
          ...myStreamingPaths(),
          ...tokenPaths(),
          ...connectionsPaths(),
          ...detailsRunsPaths(),
          ...traktPaths(),
          ...calendarPaths(),
          ...nightsPaths(),
          ...pushPaths(),
          ...alertsPaths(),
        }),
      ),
    ),
    components: {
      schemas: componentSchemas({
        ...responseComponents,
        ...moviesComponents,
        ...recommendComponents,
        ...tonightComponents,
        ...localRecommendComponents,
        ...adminInvitesComponents,
        ...tokenComponents,
        ...diaryComponents,
        ...historyImportComponents,
        ...listsComponents,
        ...myStreamingComponents,
        ...connectionsComponents,
        ...detailsRunsComponents,
        ...traktComponents,
        ...calendarComponents,
        ...nightsComponents,
        ...pushComponents,
        ...alertsComponents,
      }),
      headers: headerComponents,
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "Access token of the identity provider (built-in or Supabase Auth).",
        },
        personalAccessToken: personalTokenScheme,
        adminToken: {
          type: "apiKey",
          in: "header",
          name: "x-admin-token",
          description: "The ADMIN_TOKEN of the server.",
        },
      },
    },
  };
}

let cached: string | undefined;

/**
 * The document as JSON text, built on first use and kept: the schemas are fixed for the life of
 * the process, and converting them on every request would be wasted work.
 */
export function openApiJson(): string {
  return cached ??= JSON.stringify(buildOpenApiDocument());
}
