/**
 * The paths of the document: every /api route of interface.md (plus health, the admin runs
 * list and this document). Request schemas are the ones the routes parse with, imported from
 * where the routes import them, so a change to a route's rules changes the document.
 */
import { deleteAccountBodySchema } from "../../auth/delete_account.ts";
import { signupBodySchema } from "../../auth/signup.ts";
import { catalogIdParam, popularQuerySchema, searchQuerySchema } from "../../catalog/params.ts";
import { recommendQuerySchema } from "../../recommend/query.ts";
import { jsonSchemaOf, pathParameter, queryParameters } from "../json_schema.ts";
import { historyPaths } from "./history.ts";
import { listPaths } from "./lists.ts";
import {
  internal,
  ok,
  problem,
  rateLimitHeaders,
  retryAfterHeader,
  retryAfterIfRetryable,
  unauthorized,
} from "../responses.ts";
import { servicePaths } from "./service.ts";

const bearer = [{ bearerAuth: [] }];

/** The `paths` object of the document. */
export function buildPaths(): Record<string, unknown> {
  return {
    ...listPaths(),
    ...historyPaths(),
    "/api/movies/search": {
      get: {
        summary: "Searches the external movie database.",
        tags: ["catalog"],
        parameters: queryParameters(searchQuerySchema),
        responses: {
          200: ok("Rows with poster, release date and votes.", "SearchResults", rateLimitHeaders),
          400: problem("q missing or empty, or a bad year or page (`invalid_query`)."),
          429: problem("The shared external window is full (`rate_limited`)."),
          500: problem("No API key configured, or an upstream or internal failure."),
          502: problem("Unexpected answer from the external database (`upstream_bad_response`)."),
        },
      },
    },
    "/api/movies/popular": {
      get: {
        summary: "A page of the popular feed, cached 6 hours per page.",
        tags: ["catalog"],
        parameters: queryParameters(popularQuerySchema),
        responses: {
          200: ok("The page.", "PopularPage", rateLimitHeaders),
          400: problem("page is not an integer from 1 to 500 (`invalid_query`)."),
          500: problem("No API key configured, or an upstream or internal failure."),
          502: problem("Unexpected answer from the external database (`upstream_bad_response`)."),
          503: problem("The shared external window stayed full for 5 s (`upstream_busy`)."),
        },
      },
    },
    "/api/movies/{id}": {
      get: {
        summary: "A movie's details, from the movies store when fresh, else fetched.",
        tags: ["catalog"],
        parameters: [pathParameter("id", catalogIdParam)],
        responses: {
          200: ok("The detail.", "MovieDetail", rateLimitHeaders),
          400: problem("id is not an integer from 1 to 2147483647 (`invalid_catalog_id`)."),
          404: problem("The external database has no such movie (`movie_not_found`)."),
          500: problem("External database or store failure."),
          502: problem("Unexpected answer from the external database (`upstream_bad_response`)."),
          503: problem("The shared external window stayed full for 5 s (`upstream_busy`)."),
        },
      },
    },
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
    "/api/auth/signup": {
      post: {
        summary: "Creates an account.",
        tags: ["auth"],
        requestBody: {
          required: true,
          description: "email is trimmed and lower-cased; password 8 characters to 72 bytes.",
          content: { "application/json": { schema: jsonSchemaOf(signupBodySchema, "input") } },
        },
        responses: {
          201: ok("Created.", "SignupResult"),
          400: problem(
            "Bad body (`invalid_body`, `invalid_email`, `invalid_password`), a password the " +
              "strength estimator scores under 2 of 4 (`weak_password`, its advice in `detail`), " +
              "or failed captcha (`captcha_failed`); with SIGNUP=invite, no invite code " +
              "(`invite_required`) or one unknown, used, expired or for another email " +
              "(`invite_invalid`).",
          ),
          403: problem("SIGNUP=closed: the instance takes no new accounts (`signup_disabled`)."),
          409: problem("An account with this email exists (`email_exists`)."),
          429: problem("Too many signups from this address (`rate_limited`).", retryAfterHeader),
          500: internal,
          503: problem(
            "Captcha verifier or identity provider unreachable (`captcha_unavailable`, " +
              "`identity_unavailable`, with Retry-After), or signup not configured in Supabase " +
              "mode (`signup_unavailable`).",
            retryAfterIfRetryable,
          ),
        },
      },
    },
    "/api/account": {
      delete: {
        summary: "Deletes the account and every row of the user, in one transaction.",
        description: "Supabase mode: the rows here, then the user through the admin API. " +
          "The access token is refused (401) from then on.",
        tags: ["auth"],
        security: bearer,
        requestBody: {
          required: true,
          content: {
            "application/json": { schema: jsonSchemaOf(deleteAccountBodySchema, "input") },
          },
        },
        responses: {
          204: { description: "Deleted." },
          400: problem("Missing or different confirmation (`confirmation_required`)."),
          401: unauthorized,
          403: problem(
            "Two-factor codes are on and the token is not raised to aal2 by a code " +
              "(`mfa_required`).",
          ),
          500: internal,
          502: problem("Supabase Auth refused to delete the user (`upstream_error`)."),
          503: problem(
            "Supabase Auth unreachable (`identity_unavailable`) or no service-role key " +
              "(`account_deletion_unavailable`); the rows are deleted, try again.",
            retryAfterIfRetryable,
          ),
        },
      },
    },
    ...servicePaths(),
  };
}
