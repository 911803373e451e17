/**
 * The document's personal access tokens (docs/connections.md): the /api/tokens paths, the
 * `personalAccessToken` security scheme, and what a token adds to every other bearer operation
 * (it is accepted beside the session's JWT; a read token's write is a 403).
 */
import { z } from "zod";
import { CreateTokenBody } from "@/lib/identity/personal_tokens/payload.ts";
import { type JsonSchema, jsonSchemaOf } from "../json_schema.ts";
import { internal, problem, type ResponseObject, unauthorized } from "../responses.ts";

const token = z.strictObject({
  id: z.uuid(),
  name: z.string().min(1).max(60),
  scope: z.enum(["read", "write"]),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable().meta({ description: "Null: works until revoked." }),
  lastUsedAt: z.iso.datetime().nullable().meta({
    description: "Noted at most once a minute; null until first used.",
  }),
});

/** The component schemas this file adds. */
export const tokenComponents = {
  PersonalToken: token,
  PersonalTokenList: z.strictObject({
    tokens: z.array(token).meta({ description: "Newest first." }),
  }),
  NewPersonalToken: token.extend({
    token: z.string().regex(/^mvt_[A-Za-z0-9_-]{43}$/).meta({
      description: "The token's value: shown in this answer only, stored only as its SHA-256.",
    }),
  }),
} as const;

/** The scheme of a personal access token, beside the session's `bearerAuth`. */
export const personalTokenScheme = {
  type: "http",
  scheme: "bearer",
  bearerFormat: "mvt_<43 base64url characters>",
  description: "A personal access token (POST /api/tokens). `read` tokens may only GET; " +
    "never accepted on /api/tokens, /api/me/connections, /api/account or /auth/v1.",
};

function schema(name: keyof typeof tokenComponents): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

function json(description: string, name: keyof typeof tokenComponents): ResponseObject {
  return { description, content: { "application/json": { schema: schema(name) } } };
}

const session = [{ bearerAuth: [] }];
const notAllowed = problem(
  "A personal access token (`personal_token_not_allowed`): sign in; or a session without the " +
    "second factor its user has set up (`mfa_required`).",
);

/** The paths this file adds. */
export function tokenPaths(): Record<string, unknown> {
  return {
    "/api/tokens": {
      get: {
        summary: "The user's personal access tokens, without their values.",
        tags: ["tokens"],
        security: session,
        responses: {
          200: json("The tokens.", "PersonalTokenList"),
          401: unauthorized,
          403: notAllowed,
          500: internal,
        },
      },
      post: {
        summary: "Makes a personal access token; its value is in this answer only.",
        tags: ["tokens"],
        security: session,
        requestBody: {
          required: true,
          content: { "application/json": { schema: jsonSchemaOf(CreateTokenBody, "input") } },
        },
        responses: {
          201: json("The token, with its value.", "NewPersonalToken"),
          400: problem("A bad field (`invalid_body`), or 20 tokens already (`too_many_tokens`)."),
          401: unauthorized,
          403: notAllowed,
          500: internal,
        },
      },
    },
    "/api/tokens/{id}": {
      delete: {
        summary: "Revokes a personal access token at once.",
        tags: ["tokens"],
        security: session,
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          204: { description: "Revoked." },
          401: unauthorized,
          403: notAllowed,
          404: problem("The user has no token with this id (`not_found`)."),
          500: internal,
        },
      },
    },
  };
}

/** Paths where a personal token is refused: those that manage tokens, connections, the account. */
const SESSION_ONLY =
  /^\/api\/(?:tokens(?:\/|$)|account$|me\/connections(?:\/|$)|me\/seerr$|trakt\/)/;

function join(own: ResponseObject | undefined, added: ResponseObject): ResponseObject {
  return own ? { ...own, description: `${own.description} Or ${added.description}` } : added;
}

/**
 * Adds the personal token to every bearer operation that takes one (as an alternative security
 * requirement, with the 403 of a read token's write), and its 403 to the session-only ones.
 */
export function withPersonalTokens(paths: Record<string, unknown>): Record<string, unknown> {
  const readOnly = problem("A read-only personal access token on a write (`insufficient_scope`).");
  type Operation = {
    security?: Record<string, unknown>[];
    responses: Record<string, ResponseObject>;
  };
  for (const [path, operations] of Object.entries(paths) as [string, Record<string, Operation>][]) {
    for (const [method, operation] of Object.entries(operations)) {
      const security = operation.security as Record<string, unknown>[] | undefined;
      if (!security?.some((s) => "bearerAuth" in s)) continue;
      const responses = operation.responses as Record<string, ResponseObject>;
      if (SESSION_ONLY.test(path)) {
        if (responses[403] !== notAllowed) responses[403] = join(responses[403], notAllowed);
        continue;
      }
      operation.security = [...security, { personalAccessToken: [] }];
      if (method !== "get" && method !== "head") responses[403] = join(responses[403], readOnly);
    }
  }
  return paths;
}
