/**
 * The bodies of /api/me/alerts/channels (docs/alerts.md, "API"): a new channel by type, a
 * change of name or switch; what does not parse is 400 `invalid_body`, an unknown type 400
 * `invalid_type`. Whether the target may be reached is the service's (`invalid_target`).
 */
import { z } from "zod";
import { Problem } from "@/lib/core/problem.ts";
import { CHANNEL_TYPES, type ChannelType } from "./types.ts";
import { pushSubscriptionSchema } from "../web_push/mod.ts";

const name = z.string().trim().min(1).max(100).optional();
// A URL's syntax is the target guard's to judge (400 invalid_target), so any string up to 2 KiB.
const url = z.string().max(2048);

const SCHEMAS = {
  email: z.strictObject({ type: z.literal("email"), name }),
  webpush: z.strictObject({
    type: z.literal("webpush"),
    name,
    // https, a P-256 point and a 16-byte secret (web_push/subscription.ts): what could never be
    // delivered to is refused here rather than failing at every alert.
    subscription: pushSubscriptionSchema,
  }),
  ntfy: z.strictObject({
    type: z.literal("ntfy"),
    name,
    url,
    token: z.string().trim().min(1).max(200).regex(/^[\x21-\x7e]+$/).optional(),
  }),
  discord: z.strictObject({ type: z.literal("discord"), name, url }),
  webhook: z.strictObject({ type: z.literal("webhook"), name, url }),
  apprise: z.strictObject({ type: z.literal("apprise"), name, url }),
};

/** Every new channel's body, by type (the API reference shows it). */
export const newChannelSchema = z.discriminatedUnion("type", [
  SCHEMAS.email,
  SCHEMAS.webpush,
  SCHEMAS.ntfy,
  SCHEMAS.discord,
  SCHEMAS.webhook,
  SCHEMAS.apprise,
]);

/** A new channel as the API takes it. */
export type NewChannel = z.output<(typeof SCHEMAS)[ChannelType]>;

/** The body of POST /api/me/alerts/channels, parsed by its type. */
export function parseNewChannel(body: unknown): NewChannel {
  const type = (body as { type?: unknown } | null)?.type;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new Problem(400, "invalid_body", "The body must be a JSON object.");
  }
  if (typeof type !== "string" || !(CHANNEL_TYPES as readonly string[]).includes(type)) {
    throw new Problem(
      400,
      "invalid_type",
      `type must be one of ${CHANNEL_TYPES.join(", ")}.`,
    );
  }
  const parsed = SCHEMAS[type as ChannelType].safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Problem(
      400,
      "invalid_body",
      `${issue.path.join(".") || "body"}: ${issue.message}`,
    );
  }
  return parsed.data;
}

/** PATCH /api/me/alerts/channels/:id's body. */
export const channelPatchSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  enabled: z.boolean(),
})
  .partial().refine((p) => p.name !== undefined || p.enabled !== undefined);

/** A change to a channel: its name, its switch, or both. */
export type ChannelPatch = z.output<typeof channelPatchSchema>;

/** The body of PATCH /api/me/alerts/channels/:id. */
export function parseChannelPatch(body: unknown): ChannelPatch {
  const parsed = channelPatchSchema.safeParse(body);
  if (!parsed.success) {
    throw new Problem(
      400,
      "invalid_body",
      'The body must be {"name"?, "enabled"?} with one of them.',
    );
  }
  return parsed.data;
}

/** A channel's id in a path. */
export const channelIdSchema = z.uuid();

/** The channel id of a path; one that cannot be an id is the same 404 as another user's. */
export function parseChannelId(raw: string | undefined): string {
  const id = channelIdSchema.safeParse(raw);
  if (!id.success) throw channelNotFound();
  return id.data.toLowerCase();
}

/** 404: no such channel of the caller's. */
export function channelNotFound(): Problem {
  return new Problem(404, "channel_not_found", "No such alert channel.");
}
