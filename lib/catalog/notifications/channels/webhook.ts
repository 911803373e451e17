/**
 * A generic webhook signed as Standard Webhooks signs (standardwebhooks.com): the JSON body with
 * `webhook-id` (the same on every attempt), `webhook-timestamp` (seconds) and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the bytes
 * after `whsec_` of the channel's secret, which the user saw once when adding the channel.
 */
import { postToTarget } from "./http_post.ts";
import type { AlertMessage, ChannelSender } from "./types.ts";

const PREFIX = "whsec_";

function base64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(out);
}

/** A fresh secret: `whsec_` and the base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return PREFIX + base64(crypto.getRandomValues(new Uint8Array(32)));
}

/** The `webhook-signature` value of `body` sent with `id` at `timestamp` (seconds). */
async function signWebhook(
  secret: string,
  signed: { id: string; timestamp: number; body: string },
): Promise<string> {
  const raw = Uint8Array.from(atob(secret.slice(PREFIX.length)), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey(
    "raw",
    raw,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign(
    "HMAC",
    key,
    new TextEncoder().encode(`${signed.id}.${signed.timestamp}.${signed.body}`),
  );
  return `v1,${base64(new Uint8Array(mac))}`;
}

/** The body a webhook receives: the alert's facts, without the rendered text. */
function payload(message: AlertMessage): Record<string, unknown> {
  const body: Record<string, unknown> = {
    kind: message.kind,
    createdAt: message.createdAt,
    movie: message.movie,
  };
  if (message.provider) body.provider = message.provider;
  if (message.region) body.region = message.region;
  if (message.releaseType) body.releaseType = message.releaseType;
  if (message.channelName) body.channelName = message.channelName;
  return body;
}

/** Posts the signed payload to the channel's URL. */
export const sendWebhook: ChannelSender = async (channel, message, deps) => {
  if (channel.type !== "webhook") throw new Error(`not a webhook channel: ${channel.type}`);
  const body = JSON.stringify(payload(message));
  const id = `msg_${message.id ?? crypto.randomUUID()}`;
  const timestamp = Math.floor(deps.clock.now() / 1000);
  return await postToTarget(deps, channel.url, {
    headers: {
      "Content-Type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": await signWebhook(channel.secret, { id, timestamp, body }),
    },
    body,
  });
};
