/**
 * The history fields of a watched entry (docs/entries.md): `rating`, `watchedOn`, `note`,
 * each optional and each cleared by null. The zod schemas are what GET /api/openapi.json
 * documents; the parsers add what JSON Schema cannot say (tomorrow depends on the clock) and
 * give each field its own error code.
 */
import { z } from "zod";
import { Problem } from "@/lib/core/problem.ts";

/** The earliest watch date accepted: the first known motion picture is from 1874. */
export const EARLIEST_WATCH_DATE = "1874-01-01";

/** The longest note, in characters (code points, as Postgres `char_length`), after trimming. */
export const MAX_NOTE_LENGTH = 2000;

const DAY_MS = 86_400_000;

/** Whether `text` is `YYYY-MM-DD` naming a real calendar day (2024-02-30 is not). */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** The UTC calendar date of an instant, `YYYY-MM-DD`. */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A rating: an integer 1-10 (the website shows half-stars, rating / 2), or null for unrated. */
export const ratingSchema = z.number().int().min(1).max(10).nullable()
  .meta({ description: "1-10 (shown as 0.5-5 stars); null clears it." });

/** A watch date: a real `YYYY-MM-DD` from 1874-01-01 to tomorrow (UTC), or null for unknown. */
export const watchedOnSchema = z.string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine(isCalendarDate)
  .refine((d) => d >= EARLIEST_WATCH_DATE)
  .nullable()
  .meta({
    format: "date",
    description: `A real date from ${EARLIEST_WATCH_DATE} to tomorrow (UTC); null clears it.`,
  });

/** A private note: a string of at most 2,000 characters after trimming, or null for none. */
export const noteSchema = z.string()
  .refine((s) => [...s.trim()].length <= MAX_NOTE_LENGTH)
  // PostgreSQL text cannot hold U+0000; refused here too for callers that skip the body reader.
  .refine((s) => !s.includes("\0"))
  .nullable()
  // JSON Schema counts characters (code points) as the parser does; trimming it cannot say.
  .meta({
    maxLength: MAX_NOTE_LENGTH,
    description: `At most ${MAX_NOTE_LENGTH} characters after trimming (then stored trimmed; ` +
      "blank is none); null clears it.",
  });

/** The history fields of a write, each present only when the body named it. */
export interface EntryFields {
  rating?: number | null;
  watchedOn?: string | null;
  note?: string | null;
}

/** The names of the history fields, in the order they are checked. */
export const ENTRY_KEYS = ["rating", "watchedOn", "note"] as const;

/** Checks the history fields `body` names; `now` (clock ms) sets tomorrow's bound. */
export function parseEntryFields(body: Record<string, unknown>, now: number): EntryFields {
  const fields: EntryFields = {};
  if (Object.hasOwn(body, "rating")) {
    const rating = ratingSchema.safeParse(body.rating);
    if (!rating.success) {
      throw new Problem(400, "invalid_rating", "rating must be an integer from 1 to 10, or null.");
    }
    fields.rating = rating.data;
  }
  if (Object.hasOwn(body, "watchedOn")) {
    const date = watchedOnSchema.safeParse(body.watchedOn);
    if (!date.success || (date.data !== null && date.data > utcDate(now + DAY_MS))) {
      throw new Problem(
        400,
        "invalid_date",
        `watchedOn must be a real date YYYY-MM-DD from ${EARLIEST_WATCH_DATE} to tomorrow (UTC), ` +
          "or null.",
      );
    }
    fields.watchedOn = date.data;
  }
  if (Object.hasOwn(body, "note")) {
    const note = noteSchema.safeParse(body.note);
    if (!note.success) {
      throw new Problem(
        400,
        "invalid_note",
        `note must be a string of at most ${MAX_NOTE_LENGTH} characters after trimming, ` +
          "without NUL characters, or null.",
      );
    }
    // A blank note is no note.
    fields.note = note.data === null ? null : note.data.trim() || null;
  }
  return fields;
}
