/**
 * The shapes every alert channel shares (docs/alerts.md): a stored channel with its secrets
 * opened, the message one alert becomes, and the sender that delivers it to one channel.
 */
import type { Clock } from "@/lib/core/clock.ts";
import type { Config } from "@/lib/core/config.ts";
import type { Mailer } from "@/lib/platform/mail/mod.ts";

/** Every channel type, in the order the API lists them. */
export const CHANNEL_TYPES = ["email", "webpush", "ntfy", "discord", "webhook", "apprise"] as const;

/** One channel type. */
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** A browser's push subscription, as `PushSubscription.toJSON()` gives it. */
interface PushSubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** What a channel of each type delivers to, secrets opened (the store keeps them sealed). */
type ChannelTarget =
  /** The account's own address (auth.users.email), read when the channel is loaded. */
  | { type: "email"; address: string | null }
  | { type: "webpush"; subscription: PushSubscriptionJson }
  /** `url` is the server and topic, e.g. https://ntfy.sh/my-topic. */
  | { type: "ntfy"; url: string; token?: string }
  /** `url` is https://discord.com/api/webhooks/{id}/{token}. */
  | { type: "discord"; url: string }
  /** `secret` is `whsec_<base64 of 32 bytes>`, Standard Webhooks' form. */
  | { type: "webhook"; url: string; secret: string }
  /** `url` is an Apprise API notify endpoint, e.g. http://apprise:8000/notify/apprise. */
  | { type: "apprise"; url: string };

/** A user's channel as the delivery side sees it. */
export type StoredChannel = ChannelTarget & {
  id: string;
  userId: string;
  name: string;
  enabled: boolean;
};

/** One alert (or a test message) as the senders render it. */
export interface AlertMessage {
  /**
   * The notification's id (a test message has its own): the same on every attempt, so a receiver
   * can drop a repeat (the webhook's `webhook-id`).
   */
  id?: string;
  /** The notification's kind (now_streaming, in_theaters, ...), or `test` from the test button. */
  kind: string;
  /** ISO 8601 time the alert was made. */
  createdAt: string;
  /** The film; null for a notice that names none (`channel_disabled`). */
  movie: {
    catalogId: number;
    title: string;
    year: number | null;
    /** The movie's page on this site (absolute). */
    url: string;
    /** The poster's full image URL, or null. */
    poster: string | null;
  } | null;
  provider?: { id: number; name: string };
  region?: string;
  /** `theatrical`, `digital`, `physical`, ... for the release kinds. */
  releaseType?: string;
  /** The disabled channel's name (`channel_disabled`). */
  channelName?: string;
  /** The one-line plain title, e.g. "Dune (2021) is now streaming". */
  title: string;
  /** The plain text body, e.g. "On Netflix in DE". */
  body: string;
}

/** What a sender may use: the network, the attempt's deadline, time and the configuration. */
export interface SenderDeps {
  fetch: typeof fetch;
  /** Aborts the attempt at its deadline (10 s); a sender passes it to every request. */
  signal: AbortSignal;
  clock: Clock;
  config: Config;
  /** The mailer of SMTP_URL; unset, an email channel answers delivered:false. */
  mailer?: Mailer;
}

/** The outcome of one delivery attempt. */
export type SendResult =
  | { delivered: true }
  /** `remove`: the target is gone for good (a push service's 404/410); drop the channel. */
  | { delivered: false; error: string; remove?: boolean };

/** Delivers one message to one channel, once; never throws for the target's own failures. */
export type ChannelSender = (
  channel: StoredChannel,
  message: AlertMessage,
  deps: SenderDeps,
) => Promise<SendResult>;
