/**
 * Plex's webhook (docs/connections.md): a multipart form whose `payload` field is JSON (a
 * `thumb` file may ride along and is ignored). `media.scrobble` (Plex's "watched": 90% played)
 * logs a viewing; `media.rate` sets the rating, 0-10 at the payload's top level, 0 clearing it.
 * The TMDB id comes from the new agent's `Metadata.Guid[].id` (`tmdb://N`) or the legacy
 * agent's `Metadata.guid` (`com.plexapp.agents.themoviedb://N?lang=en`); else title and year.
 */
import {
  child,
  type MediaEvent,
  type NamedMovie,
  text,
  tmdbIdField,
  yearValue,
} from "./media_event.ts";

const NEW_GUID = /^tmdb:\/\/(\d+)$/;
const LEGACY_GUID = /^com\.plexapp\.agents\.themoviedb:\/\/(\d+)(?:\?.*)?$/;

function tmdbIdOf(metadata: Record<string, unknown>): Pick<NamedMovie, "tmdbId" | "invalidId"> {
  const guids = Array.isArray(metadata.Guid) ? metadata.Guid : [];
  for (const guid of guids) {
    const id = guid && typeof guid === "object" ? (guid as Record<string, unknown>).id : undefined;
    const match = typeof id === "string" ? NEW_GUID.exec(id) : null;
    if (match) return tmdbIdField(match[1]);
  }
  const legacy = LEGACY_GUID.exec(text(metadata, "guid") ?? "");
  return legacy ? tmdbIdField(legacy[1]) : {};
}

/** The Plex account an event belongs to (`Account.title`), for the account filter. */
export function plexAccount(payload: Record<string, unknown>): string | undefined {
  return text(child(payload, "Account"), "title");
}

/** Reads a Plex payload (the parsed `payload` field). */
export function readPlex(payload: Record<string, unknown>): MediaEvent {
  const event = text(payload, "event") ?? "";
  const metadata = child(payload, "Metadata");
  const movie: NamedMovie = {
    ...tmdbIdOf(metadata),
    title: text(metadata, "title"),
    year: yearValue(metadata.year),
  };
  if (event !== "media.scrobble" && event !== "media.rate") {
    return { action: "ignore", event, movie, reason: "unsupported_event" };
  }
  if (text(metadata, "type") !== "movie") {
    return { action: "ignore", event, movie, reason: "not_a_movie" };
  }
  if (event === "media.scrobble") return { action: "watch", event, movie };
  const rating = typeof payload.rating === "number" ? payload.rating : Number(payload.rating);
  if (!Number.isFinite(rating) || rating < 0 || rating > 10) {
    return { action: "ignore", event, movie, reason: "invalid_rating" };
  }
  // Plex rates in half stars on a 0-10 scale, the scale this service keeps; 0 clears.
  const rounded = Math.round(rating);
  return { action: "rate", event, movie, rating: rounded === 0 ? null : rounded };
}
