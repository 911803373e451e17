/**
 * The document's part for alerts (docs/alerts.md): the kinds a user wants, their channels, and
 * each channel's test button.
 */
import { z } from "zod";
import { ALERT_KINDS } from "@/lib/catalog/notifications/alert_kinds.ts";
import {
  channelIdSchema,
  channelPatchSchema,
  newChannelSchema,
} from "@/lib/catalog/notifications/channels/payloads.ts";
import { kindsBodySchema } from "@/lib/catalog/notifications/channels/service.ts";
import { CHANNEL_TYPES } from "@/lib/catalog/notifications/channels/types.ts";
import { jsonSchemaOf, pathParameter } from "../json_schema.ts";
import { internal, problem, unauthorized } from "../responses.ts";

/** One channel as listed. */
const channelSchema = z.strictObject({
  id: z.uuid(),
  type: z.enum(CHANNEL_TYPES),
  name: z.string().min(1).max(100),
  enabled: z.boolean().meta({
    description: "The email channel's is e-mail alerts (emailAlerts of /api/me/services).",
  }),
  target: z.string().meta({
    description: "Masked: the target's scheme and host only (email: the address with its " +
      "local part hidden).",
  }),
  lastDeliveryAt: z.iso.datetime().nullable(),
  lastError: z.string().nullable(),
});

/** GET and PUT /api/me/alerts. */
const alertSettingsSchema = z.strictObject({
  kinds: z.strictObject(
    Object.fromEntries(ALERT_KINDS.map((k) => [k, z.boolean()])) as Record<
      (typeof ALERT_KINDS)[number],
      z.ZodBoolean
    >,
  ),
  channels: z.array(channelSchema).max(11).meta({
    description: "Oldest first; at most 10, or 11 when e-mail alerts were switched on in the " +
      "streaming settings while 10 others existed (the email channel is that switch).",
  }),
});

/** POST /api/me/alerts/channels's 201. */
const createdChannelSchema = channelSchema.extend({
  secret: z.string().regex(/^whsec_[A-Za-z0-9+/]{43}=$/).optional().meta({
    description: "A webhook channel's signing secret (Standard Webhooks), shown only here.",
  }),
});

/** POST /api/me/alerts/channels/:id/test. */
const testOutcomeSchema = z.union([
  z.strictObject({ delivered: z.literal(true) }),
  z.strictObject({ delivered: z.literal(false), error: z.string() }),
]);

/** The component schemas this file adds. */
export const alertsComponents = {
  AlertSettings: alertSettingsSchema,
  AlertChannel: channelSchema,
  CreatedAlertChannel: createdChannelSchema,
  AlertTestOutcome: testOutcomeSchema,
} as const;

function json(description: string, name: keyof typeof alertsComponents) {
  return {
    description,
    content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
  };
}

const bearer = [{ bearerAuth: [] }];
const tags = ["streaming"];
const id = pathParameter("id", channelIdSchema);
const notFound = problem("No such channel of mine (`channel_not_found`).");

/** The paths this file adds. */
export function alertsPaths(): Record<string, unknown> {
  return {
    "/api/me/alerts": {
      get: {
        summary: "The alert kinds I want and my alert channels.",
        tags,
        security: bearer,
        responses: {
          200: json("Kinds and channels.", "AlertSettings"),
          401: unauthorized,
          500: internal,
        },
      },
      put: {
        summary: "Switches the kinds named; the others keep theirs.",
        tags,
        security: bearer,
        requestBody: {
          required: true,
          content: { "application/json": { schema: jsonSchemaOf(kindsBodySchema, "input") } },
        },
        responses: {
          200: json("Kinds and channels now.", "AlertSettings"),
          400: problem("An unknown kind or a value other than true/false (`invalid_kinds`)."),
          401: unauthorized,
          500: internal,
        },
      },
    },
    "/api/me/alerts/channels": {
      post: {
        summary: "Adds an alert channel; the same type and target again replaces it.",
        tags,
        security: bearer,
        requestBody: {
          required: true,
          content: { "application/json": { schema: jsonSchemaOf(newChannelSchema, "input") } },
        },
        responses: {
          201: json("The channel (a webhook's with its secret, this once).", "CreatedAlertChannel"),
          400: problem(
            "An unknown type (`invalid_type`), a malformed body (`invalid_body`), a target " +
              "that is malformed, not http(s), on a private address, or not a Discord " +
              "webhook URL (`invalid_target`), or an 11th channel (`too_many_channels`).",
          ),
          401: unauthorized,
          500: internal,
        },
      },
    },
    "/api/me/alerts/channels/{id}": {
      patch: {
        summary: "Renames or switches a channel (switched on, its failures count from 0).",
        tags,
        security: bearer,
        parameters: [id],
        requestBody: {
          required: true,
          content: { "application/json": { schema: jsonSchemaOf(channelPatchSchema, "input") } },
        },
        responses: {
          200: json("The channel now.", "AlertChannel"),
          400: problem("Neither name nor enabled, or another field (`invalid_body`)."),
          401: unauthorized,
          404: notFound,
          500: internal,
        },
      },
      delete: {
        summary: "Removes a channel (the email channel: e-mail alerts off).",
        tags,
        security: bearer,
        parameters: [id],
        responses: {
          204: { description: "Removed." },
          401: unauthorized,
          404: notFound,
          500: internal,
        },
      },
    },
    "/api/me/alerts/channels/{id}/test": {
      post: {
        summary: "Sends a test message now: one delivery attempt, counted like any other.",
        tags,
        security: bearer,
        parameters: [id],
        responses: {
          200: json("Whether it arrived, or why not.", "AlertTestOutcome"),
          401: unauthorized,
          404: notFound,
          500: internal,
        },
      },
    },
  };
}
