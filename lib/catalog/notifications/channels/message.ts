/**
 * The message one notification becomes on every channel (docs/alerts.md, "Messages"): a plain
 * title and body for people, the facts (movie, provider, region, release type) for machines.
 */
import { alertDay, RELEASE_WORDS } from "../alert_words.ts";
import type { AlertMessage } from "./types.ts";

/** A notification with its film, as the delivery queue reads it. */
export interface NotificationFacts {
  id: string;
  kind: string;
  createdAt: string;
  catalogId: number | null;
  title: string | null;
  year: number | null;
  posterPath: string | null;
  providerId: number | null;
  providerName: string | null;
  region: string | null;
  releaseType: string | null;
  releaseDate: string | null;
  channelName: string | null;
}

/** Where links and posters point. */
interface MessageLinks {
  siteUrl: string;
  imageBaseUrl: string;
}

/** The message of one notification. */
export function notificationMessage(n: NotificationFacts, links: MessageLinks): AlertMessage {
  if (n.kind === "channel_disabled" || n.catalogId === null) {
    const name = n.channelName ?? "An alert channel";
    return {
      id: n.id,
      kind: n.kind,
      createdAt: n.createdAt,
      movie: null,
      channelName: n.channelName ?? undefined,
      title: "Alert channel switched off",
      body: `"${name}" failed 10 times in a row and was switched off; ` +
        `switch it back on in your account once it works again.`,
    };
  }
  const filmTitle = n.title || `Movie ${n.catalogId}`;
  const named = n.year ? `${filmTitle} (${n.year})` : filmTitle;
  const release = RELEASE_WORDS[n.kind];
  const region = n.region ?? "";
  const title = release ? `${named} ${release.headline}` : `${named} is now streaming`;
  const body = release
    ? `${release.where} in ${region}${n.releaseDate ? ` from ${alertDay(n.releaseDate)}` : ""}.`
    : `On ${n.providerName || "one of your services"} in ${region}.`;
  const message: AlertMessage = {
    id: n.id,
    kind: n.kind,
    createdAt: n.createdAt,
    movie: {
      catalogId: n.catalogId,
      title: filmTitle,
      year: n.year || null,
      url: `${links.siteUrl}/movies/${n.catalogId}`,
      poster: n.posterPath ? `${links.imageBaseUrl}/w342${n.posterPath}` : null,
    },
    title,
    body,
  };
  if (n.providerId !== null) {
    message.provider = { id: n.providerId, name: n.providerName ?? "" };
  }
  if (n.region) message.region = n.region;
  if (n.releaseType) message.releaseType = n.releaseType;
  return message;
}

/** The message of a channel's test button. */
export function testMessage(now: number): AlertMessage {
  return {
    id: crypto.randomUUID(),
    kind: "test",
    createdAt: new Date(now).toISOString(),
    movie: null,
    title: "Test alert",
    body: "This channel works: alerts about the films on your list will arrive here.",
  };
}
