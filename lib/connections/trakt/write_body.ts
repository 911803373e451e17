/**
 * The bodies of Trakt's writes (docs/trakt.md, "Writes and scrobbles"): lenient as Trakt is
 * (unknown keys kept, shows, seasons and episodes accepted and listed under `not_found`), strict
 * only where a value is out of range, which answers 422.
 */
import { z } from "zod";
import { Problem } from "@/lib/core/problem.ts";
import { EARLIEST_WATCH_DATE } from "@/lib/library/entries/entry_fields.ts";
import type { TraktMovieRef } from "./resolve_ids.ts";

const item = z.looseObject({}).nullable().catch(null);
const items = z.array(z.unknown()).optional().catch(undefined)
  .transform((list) => (list ?? []).filter((i) => i !== null && typeof i === "object"));

/** A sync body: `movies` to act on, and what Trakt has besides (only listed as not found). */
export const SyncBody = z.looseObject({
  movies: items,
  shows: items,
  seasons: items,
  episodes: items,
  ids: z.array(z.unknown()).optional().catch(undefined),
});

/** A parsed sync body. */
export type SyncItems = z.infer<typeof SyncBody>;

/** A scrobble or check-in body: the movie and how far it is (0-100). */
export const ScrobbleBody = z.looseObject({
  movie: item,
  episode: item,
  show: item,
  progress: z.unknown().optional(),
});

/** A parsed scrobble or check-in body (what the service reads of it). */
export interface ScrobbleItems {
  movie?: Record<string, unknown> | null;
  progress?: unknown;
}

/** A movie item of a sync body as sent: the reference, plus what each write reads. */
export type MovieItem = TraktMovieRef & {
  watched_at?: unknown;
  rated_at?: unknown;
  rating?: unknown;
  [key: string]: unknown;
};

/** Trakt's `not_found` of a body: the movies not resolved, and everything else as sent. */
export function notFound(body: SyncItems, movies: unknown[]) {
  return { movies, shows: body.shows, seasons: body.seasons, episodes: body.episodes };
}

/** A 422 for a bad value of an item. */
export function badValue(code: string, detail: string): Problem {
  return new Problem(422, code, detail);
}

/**
 * The UTC date of a Trakt time: now when absent, 422 `invalid_watched_at` when it is not a time
 * or falls outside 1874-01-01 to tomorrow (the diary's dates).
 */
export function watchDate(value: unknown, now: number): string {
  if (value === undefined || value === null) return new Date(now).toISOString().slice(0, 10);
  const ms = typeof value === "string" ? Date.parse(value) : NaN;
  const tomorrow = new Date(now + 86_400_000).toISOString().slice(0, 10);
  const day = Number.isNaN(ms) ? "" : new Date(ms).toISOString().slice(0, 10);
  if (day === "" || day < EARLIEST_WATCH_DATE || day > tomorrow) {
    throw badValue("invalid_watched_at", "watched_at must be a time from 1874 to tomorrow.");
  }
  return day;
}

/**
 * A rating's own time: none when absent, the instant when it is a time up to tomorrow, else 422
 * `invalid_rated_at`.
 */
export function ratedAtOf(value: unknown, now: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  const ms = typeof value === "string" ? Date.parse(value) : NaN;
  if (Number.isNaN(ms) || ms > now + 86_400_000) {
    throw badValue("invalid_rated_at", "rated_at must be a time up to tomorrow.");
  }
  return new Date(ms).toISOString();
}

/**
 * A scrobble's progress: a number from 0 to 100, else 422 `invalid_progress`. None reads as 0:
 * clients built on the trakt.tv npm package drop every falsy field, a start at 0 included.
 */
export function progressOf(value: unknown): number {
  if (value === undefined || value === null) return 0;
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n) || n < 0 || n > 100) {
    throw badValue("invalid_progress", "progress must be a number from 0 to 100.");
  }
  return n;
}
