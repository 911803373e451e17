/** Each channel type's sender (docs/alerts.md, "Channels"). */
import { sendApprise } from "./apprise.ts";
import { sendDiscord } from "./discord.ts";
import { sendEmail } from "./email.ts";
import { sendNtfy } from "./ntfy.ts";
import type { ChannelSender, ChannelType } from "./types.ts";
import { sendWebhook } from "./webhook.ts";
import { sendWebPush } from "./webpush.ts";

/** The sender of each channel type. */
export const SENDERS: Record<ChannelType, ChannelSender> = {
  email: sendEmail,
  webpush: sendWebPush,
  ntfy: sendNtfy,
  discord: sendDiscord,
  webhook: sendWebhook,
  apprise: sendApprise,
};
