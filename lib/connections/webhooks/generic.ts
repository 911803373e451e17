/**
 * The generic receiver (docs/connections.md) for scripts and servers without their own:
 * `{"tmdbId"?,"title"?,"year"?,"watchedAt"?,"rating"?}` logs a viewing (a rating 1-10 with it).
 */
import { type MediaEvent, type NamedMovie, text, tmdbIdField, yearValue } from "./media_event.ts";

/** Reads a generic payload. */
export function readGeneric(payload: Record<string, unknown>): MediaEvent {
  const event = "watched";
  const movie: NamedMovie = {
    ...tmdbIdField(payload.tmdbId),
    title: text(payload, "title"),
    year: yearValue(payload.year),
  };
  if (movie.tmdbId === undefined && !movie.invalidId && movie.title === undefined) {
    return { action: "ignore", event, movie, reason: "no_movie" };
  }
  const rating = payload.rating;
  if (rating !== undefined && rating !== null) {
    if (!Number.isInteger(rating) || (rating as number) < 1 || (rating as number) > 10) {
      return { action: "ignore", event, movie, reason: "invalid_rating" };
    }
  }
  return {
    action: "watch",
    event,
    movie,
    at: text(payload, "watchedAt"),
    ...(typeof rating === "number" ? { rating } : {}),
  };
}
