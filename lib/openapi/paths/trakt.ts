/**
 * The website's own /api/trakt paths (docs/trakt.md, "Sign-in"): /activate's device codes, the
 * consent page's answer, the user's own apps and the apps they signed in to. The /trakt routes
 * themselves speak Trakt's wire format and are described in docs/trakt.md, not here.
 */
import { z } from "zod";
import {
  ActivateBody,
  ActivateQuery,
  AuthorizeBody,
  CreateAppBody,
} from "@/lib/connections/trakt/api_bodies.ts";
import { type JsonSchema, jsonSchemaOf, pathParameter, queryParameters } from "../json_schema.ts";
import { internal, problem, type ResponseObject, unauthorized } from "../responses.ts";

const appRef = z.strictObject({
  name: z.string().nullable().meta({ description: "Null: a client registered elsewhere." }),
  clientId: z.string(),
});

const app = z.strictObject({
  id: z.uuid(),
  name: z.string().min(1).max(100),
  clientId: z.string().regex(/^[0-9a-f]{64}$/),
  redirectUris: z.array(z.string()),
  createdAt: z.iso.datetime(),
});

/** The component schemas this file adds. */
export const traktComponents = {
  TraktActivation: z.strictObject({
    userCode: z.string().regex(/^[A-HJ-NP-Z2-9]{8}$/),
    app: appRef,
    expiresAt: z.iso.datetime(),
  }),
  TraktActivationResult: z.strictObject({ result: z.enum(["approved", "denied"]) }),
  TraktApp: app,
  TraktAppList: z.strictObject({ apps: z.array(app).meta({ description: "Oldest first." }) }),
  NewTraktApp: app.extend({
    clientSecret: z.string().regex(/^[0-9a-f]{64}$/).meta({
      description: "Shown in this answer only, stored only as its SHA-256.",
    }),
  }),
  TraktConsent: z.strictObject({
    code: z.string().nullable().meta({ description: "Null when denied." }),
    redirectTo: z.string().nullable().meta({
      description: "Null for urn:ietf:wg:oauth:2.0:oob: the page shows the code instead.",
    }),
  }),
  TraktAuthorizationList: z.strictObject({
    authorizations: z.array(z.strictObject({
      id: z.uuid(),
      app: appRef,
      scope: z.string(),
      createdAt: z.iso.datetime(),
      lastUsedAt: z.iso.datetime().nullable().meta({
        description: "Noted at most once a minute; null until first used.",
      }),
    })).meta({ description: "Newest first." }),
  }),
} as const;

function json(description: string, name: keyof typeof traktComponents): ResponseObject {
  const schema: JsonSchema = { $ref: `#/components/schemas/${name}` };
  return { description, content: { "application/json": { schema } } };
}

function body(schema: z.ZodType) {
  return {
    required: true,
    content: { "application/json": { schema: jsonSchemaOf(schema, "input") } },
  };
}

const session = [{ bearerAuth: [] }];
const tags = ["connections"];
const forbidden = problem("A personal access token (`insufficient_scope`): sign in.");
const noCode = problem("Unknown, used or expired code (`device_code_not_found`).");

/** The paths this file adds. */
export function traktPaths(): Record<string, unknown> {
  return {
    "/api/trakt/activate": {
      get: {
        summary: "The pending device code the user typed on /activate, and the app that asks.",
        tags,
        security: session,
        parameters: queryParameters(ActivateQuery),
        responses: {
          200: json("The code and its app.", "TraktActivation"),
          400: problem("No code (`invalid_query`)."),
          401: unauthorized,
          403: forbidden,
          404: noCode,
          500: internal,
        },
      },
      post: {
        summary: "Approves or denies a device code.",
        tags,
        security: session,
        requestBody: body(ActivateBody),
        responses: {
          200: json("The answer.", "TraktActivationResult"),
          400: problem("A bad field (`invalid_body`)."),
          401: unauthorized,
          403: forbidden,
          404: noCode,
          500: internal,
        },
      },
    },
    "/api/trakt/apps": {
      get: {
        summary: "The user's own Trakt apps, without their secrets.",
        tags,
        security: session,
        responses: {
          200: json("The apps.", "TraktAppList"),
          401: unauthorized,
          403: forbidden,
          500: internal,
        },
      },
      post: {
        summary: "Makes an app; its client secret is in this answer only.",
        tags,
        security: session,
        requestBody: body(CreateAppBody),
        responses: {
          201: json("The app, with its secret.", "NewTraktApp"),
          400: problem("A bad field (`invalid_body`)."),
          401: unauthorized,
          403: forbidden,
          409: problem("20 apps already (`too_many_apps`)."),
          500: internal,
        },
      },
    },
    "/api/trakt/apps/{id}": {
      delete: {
        summary: "Deletes an app; every token it holds ends.",
        tags,
        security: session,
        parameters: [pathParameter("id", z.string())],
        responses: {
          204: { description: "Deleted." },
          401: unauthorized,
          403: forbidden,
          404: problem("No such app of the user (`not_found`)."),
          500: internal,
        },
      },
    },
    "/api/trakt/authorize": {
      post: {
        summary: "The consent page's answer for one of the user's own apps.",
        tags,
        security: session,
        requestBody: body(AuthorizeBody),
        responses: {
          200: json("The code and where the browser goes.", "TraktConsent"),
          400: problem(
            "A bad field (`invalid_body`), not the user's own app (`invalid_client`), or a " +
              "redirect URI the app did not register (`invalid_redirect_uri`).",
          ),
          401: unauthorized,
          403: forbidden,
          500: internal,
        },
      },
    },
    "/api/trakt/authorizations": {
      get: {
        summary: "The apps the user signed in to, with their last use.",
        tags,
        security: session,
        responses: {
          200: json("The authorizations.", "TraktAuthorizationList"),
          401: unauthorized,
          403: forbidden,
          500: internal,
        },
      },
    },
    "/api/trakt/authorizations/{id}": {
      delete: {
        summary: "Signs an app out: its access and refresh tokens end at once.",
        tags,
        security: session,
        parameters: [pathParameter("id", z.string())],
        responses: {
          204: { description: "Signed out." },
          401: unauthorized,
          403: forbidden,
          404: problem("No such authorization of the user (`not_found`)."),
          500: internal,
        },
      },
    },
  };
}
