/**
 * The bodies that write a watched entry's history (docs/entries.md): POST /api/watched's
 * write payload with optional `rating`, `watchedOn`, `note` beside it, and PATCH
 * /api/watched/:catalogId's `{rating?, watchedOn?, note?}`.
 */
import { z } from "zod";
import { Problem } from "@/lib/core/problem.ts";
import {
  ENTRY_KEYS,
  type EntryFields,
  noteSchema,
  parseEntryFields,
  ratingSchema,
  watchedOnSchema,
} from "./entry_fields.ts";
import { parseCatalogId, writePayloadSchema } from "./write_payload.ts";

const historyShape = {
  rating: ratingSchema.optional(),
  watchedOn: watchedOnSchema.optional(),
  note: noteSchema.optional(),
};

/** POST /api/watched as documented: either write-payload form, the history fields beside it. */
export const watchedPostSchema = z.union([
  writePayloadSchema.options[0].extend(historyShape).meta({ title: "Flat" }),
  writePayloadSchema.options[1].extend(historyShape).meta({ title: "Nested" }),
]);

/** PATCH /api/watched/:catalogId as documented: at least one field, no other key. */
export const entryPatchSchema = z.strictObject(historyShape)
  .refine((body) => Object.keys(body).length > 0)
  .meta({ minProperties: 1 });

function isObject(body: unknown): body is Record<string, unknown> {
  return typeof body === "object" && body !== null && !Array.isArray(body);
}

/** A watched add: its catalog id, and the history fields it sets (none: a repeat changes nothing). */
export interface WatchedWrite {
  catalogId: number;
  fields: EntryFields;
}

/** Reads POST /api/watched's parsed body; `now` (clock ms) bounds watchedOn. */
export function parseWatchedWrite(body: unknown, now: number): WatchedWrite {
  const catalogId = parseCatalogId(body);
  return { catalogId, fields: parseEntryFields(body as Record<string, unknown>, now) };
}

/** Reads PATCH /api/watched/:catalogId's parsed body; `now` (clock ms) bounds watchedOn. */
export function parseEntryPatch(body: unknown, now: number): EntryFields {
  if (!isObject(body)) {
    throw new Problem(400, "invalid_body", "The body must be a JSON object.");
  }
  const unknown = Object.keys(body).find((k) => !(ENTRY_KEYS as readonly string[]).includes(k));
  if (unknown !== undefined) {
    throw new Problem(
      400,
      "invalid_body",
      `Unknown field ${JSON.stringify(unknown)}: only rating, watchedOn and note can be changed.`,
    );
  }
  if (Object.keys(body).length === 0) {
    throw new Problem(400, "invalid_body", "Name at least one of rating, watchedOn and note.");
  }
  return parseEntryFields(body, now);
}
