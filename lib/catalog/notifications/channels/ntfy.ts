/**
 * ntfy (docs.ntfy.sh, "Publishing"): POST the body text to the server's topic URL with `Title`,
 * `Click` (the movie's page) and `Tags` (emoji short codes) headers, and `Authorization: Bearer`
 * with an access token. A header value outside Latin-1 (a title in another script) is sent as an
 * RFC 2047 encoded word, which ntfy decodes.
 */
import { postToTarget } from "./http_post.ts";
import type { ChannelSender } from "./types.ts";

const TAGS: Record<string, string> = {
  now_streaming: "tv",
  in_theaters: "movie_camera",
  on_digital: "computer",
  on_physical: "dvd",
  channel_disabled: "warning",
  test: "bell",
};

/** `value` as a header may carry it: itself when printable ASCII, else `=?UTF-8?B?...?=`. */
function headerText(value: string): string {
  const flat = value.replace(/[\r\n]+/g, " ");
  if (/^[\x20-\x7e]*$/.test(flat)) return flat;
  const bytes = new TextEncoder().encode(flat);
  return `=?UTF-8?B?${btoa(String.fromCharCode(...bytes))}?=`;
}

/** Publishes the message to the channel's ntfy topic. */
export const sendNtfy: ChannelSender = (channel, message, deps) => {
  if (channel.type !== "ntfy") throw new Error(`not an ntfy channel: ${channel.type}`);
  const headers: Record<string, string> = {
    "Content-Type": "text/plain; charset=utf-8",
    Title: headerText(message.title),
    Click: message.movie?.url ?? `${deps.config.siteUrl}/notifications`,
    Tags: TAGS[message.kind] ?? "bell",
  };
  if (channel.token) headers.Authorization = `Bearer ${channel.token}`;
  return postToTarget(deps, channel.url, { headers, body: message.body });
};
