/**
 * Emby's own webhooks (docs/connections.md), sent as JSON or as a multipart form whose `data`
 * field is the JSON: `playback.stop` with `PlaybackInfo.PlayedToCompletion`, or
 * `item.markplayed`, for an `Item.Type` of `Movie`; `Item.ProviderIds.Tmdb`, `Item.Name`,
 * `Item.ProductionYear` and the event's `Date`.
 */
import {
  child,
  flag,
  type MediaEvent,
  type NamedMovie,
  text,
  tmdbIdField,
  yearValue,
} from "./media_event.ts";

/** Reads an Emby payload. */
export function readEmby(payload: Record<string, unknown>): MediaEvent {
  const event = text(payload, "Event") ?? "";
  const item = child(payload, "Item");
  const ids = child(item, "ProviderIds");
  const movie: NamedMovie = {
    ...tmdbIdField(ids.Tmdb ?? ids.tmdb),
    title: text(item, "Name"),
    year: yearValue(item.ProductionYear),
  };
  if (event !== "playback.stop" && event !== "item.markplayed") {
    return { action: "ignore", event, movie, reason: "unsupported_event" };
  }
  if (text(item, "Type") !== "Movie") {
    return { action: "ignore", event, movie, reason: "not_a_movie" };
  }
  if (event === "playback.stop" && !flag(child(payload, "PlaybackInfo").PlayedToCompletion)) {
    return { action: "ignore", event, movie, reason: "not_finished" };
  }
  return { action: "watch", event, movie, at: text(payload, "Date") };
}
