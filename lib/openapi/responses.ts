/** Building blocks of the document's operations: JSON bodies, problem responses, headers. */
import type { ComponentName } from "./schemas.ts";
import type { JsonSchema } from "./json_schema.ts";

/** An OpenAPI Response Object. */
export type ResponseObject = Record<string, unknown>;

/** A `$ref` to a response component schema. */
export function ref(name: ComponentName): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** An `application/json` success response with a component body and optional headers. */
export function ok(
  description: string,
  name: ComponentName,
  headers?: Record<string, unknown>,
): ResponseObject {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { "application/json": { schema: ref(name) } },
  };
}

/** An `application/problem+json` error response (docs/api.md); the text names the codes. */
export function problem(description: string, headers?: Record<string, unknown>): ResponseObject {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { "application/problem+json": { schema: ref("Problem") } },
  };
}

/** The Retry-After header of a 429 or a retryable 503. */
export const retryAfterHeader: Record<string, unknown> = {
  "Retry-After": { $ref: "#/components/headers/Retry-After" },
};

/** Retry-After on the retryable causes of a status only (a 503 of missing configuration has none). */
export const retryAfterIfRetryable: Record<string, unknown> = {
  "Retry-After": {
    description: "Seconds to wait, when waiting can help (absent when the cause is configuration).",
    required: false,
    schema: { type: "string", pattern: "^[0-9]+$" },
  },
};

/** The X-RateLimit-* headers (shared external window, or the daily generation quota). */
export const rateLimitHeaders: Record<string, unknown> = {
  "X-RateLimit-Limit": { $ref: "#/components/headers/X-RateLimit-Limit" },
  "X-RateLimit-Remaining": { $ref: "#/components/headers/X-RateLimit-Remaining" },
  "X-RateLimit-Reset": { $ref: "#/components/headers/X-RateLimit-Reset" },
};

/** The header components `rateLimitHeaders` point at. */
export const headerComponents: Record<string, unknown> = {
  "X-RateLimit-Limit": {
    required: true,
    description: "Requests the window (or day) allows.",
    schema: { type: "integer" },
  },
  "X-RateLimit-Remaining": {
    required: true,
    description: "Requests left in the window (or day).",
    schema: { type: "integer" },
  },
  "X-RateLimit-Reset": {
    required: true,
    description: "Unix epoch seconds when the window (or UTC day) resets.",
    schema: { type: "integer" },
  },
  "Retry-After": {
    description: "Seconds to wait before trying again.",
    required: true,
    schema: { type: "string", pattern: "^[0-9]+$" },
  },
};

/** Problem responses every route can give. */
export const internal = problem("Store or internal failure (`internal_error`).");
/** 401 of the bearer-token routes. */
export const unauthorized = problem("Missing or invalid bearer token (`unauthorized`).");

/** 503 of the bearer-token routes when Supabase Auth (or its keys) cannot be reached. */
const identityUnavailable = problem(
  "Supabase mode: the identity provider or its keys could not be reached " +
    "(`identity_unavailable`, with Retry-After).",
);

/** 403 of the bearer-token routes: the user has a verified factor, the token is aal1. */
const codeRequired = problem(
  "Two-factor codes are on and the session is not raised to aal2 by a code yet " +
    "(`mfa_required`): verify the code first (docs/identity.md).",
);

/**
 * Adds the answers any operation of a kind can give, so each path need not repeat them: a
 * bearer-token operation can answer 403 `mfa_required` and 503 `identity_unavailable` (each
 * joined to its own 403 or 503 if it has one).
 */
export function withSharedResponses(paths: Record<string, unknown>): Record<string, unknown> {
  for (const operations of Object.values(paths) as Record<string, Record<string, unknown>>[]) {
    for (const operation of Object.values(operations)) {
      const security = operation.security as Record<string, unknown>[] | undefined;
      if (!security?.some((s) => "bearerAuth" in s)) continue;
      const responses = operation.responses as Record<string, ResponseObject>;
      const forbidden = responses[403];
      if (!String(forbidden?.description ?? "").includes("mfa_required")) {
        responses[403] = forbidden
          ? { ...forbidden, description: `${forbidden.description} Or ${codeRequired.description}` }
          : codeRequired;
      }
      const own = responses[503];
      responses[503] = own
        ? { ...own, description: `${own.description} Or ${identityUnavailable.description}` }
        : identityUnavailable;
    }
  }
  return paths;
}
