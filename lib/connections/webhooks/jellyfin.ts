/**
 * The Jellyfin Webhook plugin's JSON (docs/connections.md): `PlaybackStop` with
 * `PlayedToCompletion`, or `UserDataSaved` with `Played`, for an `ItemType` of `Movie`; the
 * item's TMDB id in `Provider_tmdb` (the plugin lower-cases each provider's key), `Name`,
 * `Year` and `UtcTimestamp`. With "Send All Properties" the booleans are JSON booleans; through
 * a Handlebars template they arrive as "True"/"False": both are read.
 */
import {
  flag,
  type MediaEvent,
  type NamedMovie,
  text,
  tmdbIdField,
  yearValue,
} from "./media_event.ts";

/** Reads a Jellyfin payload. */
export function readJellyfin(payload: Record<string, unknown>): MediaEvent {
  const event = text(payload, "NotificationType") ?? "";
  const movie: NamedMovie = {
    ...tmdbIdField(payload.Provider_tmdb),
    title: text(payload, "Name"),
    year: yearValue(payload.Year),
  };
  if (event !== "PlaybackStop" && event !== "UserDataSaved") {
    return { action: "ignore", event, movie, reason: "unsupported_event" };
  }
  if (text(payload, "ItemType") !== "Movie") {
    return { action: "ignore", event, movie, reason: "not_a_movie" };
  }
  const done = event === "PlaybackStop" ? flag(payload.PlayedToCompletion) : flag(payload.Played);
  if (!done) return { action: "ignore", event, movie, reason: "not_finished" };
  return { action: "watch", event, movie, at: text(payload, "UtcTimestamp") };
}
