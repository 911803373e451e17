/**
 * Discord webhooks (Discord's "Execute Webhook"): POST `{"embeds":[...]}` to
 * `/api/webhooks/{id}/{token}`; one embed with the title, the movie's URL, the description and
 * the poster as thumbnail, mentions off. Discord answers 204.
 */
import { clip, postToTarget } from "./http_post.ts";
import type { ChannelSender } from "./types.ts";

/** The path of a Discord webhook URL: `/api/webhooks/{id}/{token}`. */
const WEBHOOK_PATH = /^\/api\/webhooks\/\d{5,25}\/[A-Za-z0-9_-]{10,200}$/;

/** Whether `raw` has the form of a Discord webhook URL. */
export function isDiscordWebhookUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return WEBHOOK_PATH.test(url.pathname) && !url.search && !url.hash;
  } catch {
    return false;
  }
}

/** Posts the message as one embed to the channel's Discord webhook. */
export const sendDiscord: ChannelSender = (channel, message, deps) => {
  if (channel.type !== "discord") throw new Error(`not a Discord channel: ${channel.type}`);
  const embed: Record<string, unknown> = {
    // Discord's limits: a title of 256 characters, a description of 4,096.
    title: clip(message.title, 256),
    description: clip(message.body, 4096),
    url: message.movie?.url ?? `${deps.config.siteUrl}/notifications`,
    timestamp: message.createdAt,
  };
  if (message.movie?.poster) embed.thumbnail = { url: message.movie.poster };
  return postToTarget(deps, channel.url, {
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ embeds: [embed], allowed_mentions: { parse: [] } }),
  });
};
