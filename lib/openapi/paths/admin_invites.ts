/** The document's paths of the admin's signup invites (SIGNUP=invite; docs/oidc.md). */
import { z } from "zod";
import { inviteBodySchema } from "@/lib/identity/access/invites.ts";
import { jsonSchemaOf, pathParameter } from "../json_schema.ts";
import { internal, problem, retryAfterHeader } from "../responses.ts";

const admin = [{ adminToken: [] }];
const when = z.iso.datetime();

/** POST /api/admin/invites. */
const createdInviteSchema = z.strictObject({
  code: z.string().meta({ description: "The invite code (single use)." }),
  url: z.string().meta({ description: "The signup page with the code filled in." }),
  email: z.string().nullable().meta({ description: "The only email it admits, or null." }),
  expiresAt: when,
});

/** GET /api/admin/invites. */
const inviteListSchema = z.strictObject({
  invites: z.array(z.strictObject({
    code: z.string(),
    email: z.string().nullable(),
    createdAt: when,
    expiresAt: when,
    usedAt: when.nullable(),
    status: z.enum(["pending", "used", "expired"]),
  })).meta({ description: "Newest first, at most 500." }),
});

/** The component schemas this file adds. */
export const adminInvitesComponents = {
  CreatedInvite: createdInviteSchema,
  InviteList: inviteListSchema,
} as const;

function ok(description: string, name: keyof typeof adminInvitesComponents) {
  return {
    description,
    content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
  };
}

const unauthorized = problem(
  "Missing or wrong x-admin-token, or ADMIN_TOKEN unset (`unauthorized`).",
);
const limited = problem(
  "20 wrong x-admin-token values from this address in 15 minutes (`rate_limited`).",
  retryAfterHeader,
);

/** The paths this file adds. */
export function adminInvitesPaths(): Record<string, unknown> {
  return {
    "/api/admin/invites": {
      get: {
        summary: "Every signup invite with where it stands.",
        tags: ["admin"],
        security: admin,
        responses: { 200: ok("The invites.", "InviteList"), 401: unauthorized, 429: limited },
      },
      post: {
        summary: "Makes a signup invite (used once; optionally for one email).",
        tags: ["admin"],
        security: admin,
        requestBody: {
          required: false,
          description: "Empty, or the email it is for and the days it lasts.",
          content: { "application/json": { schema: jsonSchemaOf(inviteBodySchema, "input") } },
        },
        responses: {
          201: ok("Made.", "CreatedInvite"),
          400: problem("Not JSON, over 16 KiB, or a bad email or day count (`invalid_body`)."),
          401: unauthorized,
          429: limited,
          500: internal,
        },
      },
    },
    "/api/admin/invites/{code}": {
      delete: {
        summary: "Revokes an invite (a used one is only removed from the list).",
        tags: ["admin"],
        security: admin,
        parameters: [pathParameter("code", z.string().max(64))],
        responses: {
          204: { description: "Deleted." },
          401: unauthorized,
          404: problem("No invite with this code (`invite_not_found`)."),
          429: limited,
          500: internal,
        },
      },
    },
  };
}
