/**
 * An Apprise API `notify` endpoint (caronc/apprise-api: `POST /notify/{KEY}` or a stateless
 * `/notify`): `{"title","body","type":"info"}` as JSON; Apprise passes it on to the services of
 * that key and answers 200, 424 when they failed, or 204 when the key holds no configuration
 * (nothing was sent, so not delivered).
 */
import { postToTarget } from "./http_post.ts";
import type { ChannelSender } from "./types.ts";

/** Posts the message to the channel's Apprise endpoint. */
export const sendApprise: ChannelSender = async (channel, message, deps) => {
  if (channel.type !== "apprise") throw new Error(`not an Apprise channel: ${channel.type}`);
  const link = message.movie?.url ?? `${deps.config.siteUrl}/notifications`;
  const result = await postToTarget(deps, channel.url, {
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ title: message.title, body: `${message.body}\n${link}`, type: "info" }),
  });
  if (result.delivered && result.status === 204) {
    return { delivered: false, error: "Apprise has no configuration for this key (HTTP 204)" };
  }
  return result.delivered ? { delivered: true } : result;
};
