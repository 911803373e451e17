/** The account's paths: signup (routes/api/auth/signup.ts) and deletion (routes/api/account.ts). */
import { deleteAccountBodySchema } from "@/lib/identity/auth/delete_account.ts";
import { signupBodySchema } from "@/lib/identity/auth/signup.ts";
import { jsonSchemaOf } from "../json_schema.ts";
import {
  internal,
  ok,
  problem,
  retryAfterHeader,
  retryAfterIfRetryable,
  unauthorized,
} from "../responses.ts";

const bearer = [{ bearerAuth: [] }];

/** POST /api/auth/signup and DELETE /api/account. */
export function accountPaths(): Record<string, unknown> {
  return {
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
  };
}
