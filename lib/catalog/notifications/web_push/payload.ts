/**
 * What a push message carries to the service worker (docs/alerts.md, "Web Push"): the JSON that
 * lib/web/pwa/sw_source.js reads in its `push` handler to show the notification and, on a tap, to
 * open the movie's page.
 */
import type { AlertMessage } from "../channels/types.ts";

/** The decrypted body of one push message. */
interface PushPayload {
  title: string;
  body: string;
  /**
   * The movie's page (absolute, on this site): a tap opens or focuses it. A notice naming no film
   * (a disabled channel) opens the alerts section of /account instead.
   */
  url: string;
  /** The app's icon (absolute). */
  icon: string;
  /** The poster (absolute), shown large where the platform can; absent without one. */
  image?: string;
  /** One notification per film and kind: a second of the same replaces the first. */
  tag: string;
}

// Push services take at most 4,096 bytes of encrypted record; titles and bodies are cut well
// below that, so a long title never makes the message undeliverable.
const MAX_TITLE = 200;
const MAX_BODY = 1_000;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The payload for `message`, with the icon on `siteUrl`. */
export function pushPayload(message: AlertMessage, siteUrl: string): PushPayload {
  const movie = message.movie;
  return {
    title: cut(message.title, MAX_TITLE),
    body: cut(message.body, MAX_BODY),
    url: movie?.url ?? `${siteUrl}/account#alerts`,
    icon: `${siteUrl}/static/icons/icon-192.png`,
    ...(movie?.poster ? { image: movie.poster } : {}),
    tag: `${message.kind}-${movie?.catalogId ?? message.channelName ?? ""}`,
  };
}
