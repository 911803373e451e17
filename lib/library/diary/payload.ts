/**
 * The bodies and query of /api/diary (docs/diary.md): POST `{catalogId, watchedOn?, rating?,
 * note?}`, PATCH `{watchedOn?, rating?, note?}` and GET's `year`, `month`, `limit`, `cursor`.
 * A viewing always has a date: null is `invalid_date`. The zod schemas are what
 * GET /api/openapi.json documents; the parsers give each field its own error code.
 */
import { z } from "zod";
import {
  type EntryFields,
  noteSchema,
  parseEntryFields,
  ratingSchema,
  utcDate,
  watchedOnSchema,
} from "../entries/entry_fields.ts";
import { catalogIdSchema } from "@/lib/catalog/catalog_id.ts";
import { parseCatalogId } from "../entries/write_payload.ts";
import { Problem } from "@/lib/core/problem.ts";
import { type DiaryCursor, readCursor } from "./cursor.ts";

const viewingDate = watchedOnSchema.unwrap();
const fieldShape = {
  watchedOn: viewingDate.optional(),
  rating: ratingSchema.optional(),
  note: noteSchema.optional(),
};

/** POST /api/diary as documented; watchedOn defaults to today (UTC). */
export const diaryPostSchema = z.strictObject({
  catalogId: catalogIdSchema,
  ...fieldShape,
});

/** PATCH /api/diary/{id} as documented: at least one field, no other key. */
export const diaryPatchSchema = z.strictObject(fieldShape)
  .refine((body) => Object.keys(body).length > 0)
  .meta({ minProperties: 1 });

/** The largest page of GET /api/diary. */
const MAX_DIARY_LIMIT = 200;

/** GET /api/diary's query as documented. */
export const diaryQuerySchema = z.object({
  year: z.string().regex(/^\d{4}$/).optional().meta({ description: "Only this year's viewings." }),
  month: z.string().regex(/^(0?[1-9]|1[0-2])$/).optional()
    .meta({ description: "1-12; needs year." }),
  limit: z.string().regex(/^\d{1,3}$/).optional()
    .meta({ description: `Entries per page, 1-${MAX_DIARY_LIMIT} (default 50).` }),
  cursor: z.string().optional().meta({ description: "The nextCursor of the page before." }),
});

/** A viewing as POST /api/diary names it. */
interface DiaryPost {
  catalogId: number;
  watchedOn: string;
  rating: number | null;
  note: string | null;
}

/** The fields a PATCH changes; watchedOn, when named, is a date. */
export type DiaryPatch = Omit<EntryFields, "watchedOn"> & { watchedOn?: string };

/** How a page of the diary is chosen. */
export interface DiaryQuery {
  /** `[from, to)` dates, when a year (and month) is named. */
  range: [string, string] | null;
  limit: number;
  cursor: DiaryCursor | null;
  /** Entries to skip first: the website's `?page=N` (the API pages by cursor only). */
  offset?: number;
  /** Count the entries in `range` too (the website's "Entries 61–120 of N"). */
  count?: boolean;
}

const KEYS = ["watchedOn", "rating", "note"];

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new Problem(400, "invalid_body", "The body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}

function checkKeys(body: Record<string, unknown>, allowed: string[]) {
  const unknown = Object.keys(body).find((k) => !allowed.includes(k));
  if (unknown !== undefined) {
    throw new Problem(400, "invalid_body", `Unknown field ${JSON.stringify(unknown)}.`);
  }
}

function fields(body: Record<string, unknown>, now: number): DiaryPatch {
  const parsed = parseEntryFields(body, now);
  if (parsed.watchedOn === null) {
    throw new Problem(400, "invalid_date", "A viewing has a date: watchedOn cannot be null.");
  }
  return parsed as DiaryPatch;
}

/** Reads POST /api/diary's parsed body; `now` (clock ms) gives today and bounds the date. */
export function parseDiaryPost(raw: unknown, now: number): DiaryPost {
  const body = objectBody(raw);
  if (!Object.hasOwn(body, "catalogId")) {
    throw new Problem(400, "invalid_body", "The body needs catalogId.");
  }
  const catalogId = parseCatalogId(body);
  checkKeys(body, ["catalogId", ...KEYS]);
  const f = fields(body, now);
  return {
    catalogId,
    watchedOn: f.watchedOn ?? utcDate(now),
    rating: f.rating ?? null,
    note: f.note ?? null,
  };
}

/** Reads PATCH /api/diary/:id's parsed body. */
export function parseDiaryPatch(raw: unknown, now: number): DiaryPatch {
  const body = objectBody(raw);
  checkKeys(body, KEYS);
  if (Object.keys(body).length === 0) {
    throw new Problem(400, "invalid_body", "Name at least one of watchedOn, rating and note.");
  }
  return fields(body, now);
}

function invalidQuery(detail: string): never {
  throw new Problem(400, "invalid_query", detail);
}

/** Reads GET /api/diary's query; anything out of range is 400 `invalid_query`. */
export function parseDiaryQuery(params: URLSearchParams): DiaryQuery {
  const known = new Set(["year", "month", "limit", "cursor"]);
  for (const key of params.keys()) if (!known.has(key)) invalidQuery(`Unknown parameter ${key}.`);
  const q = diaryQuerySchema.safeParse(Object.fromEntries(params));
  if (!q.success) invalidQuery("year is YYYY, month 1-12, limit 1-200.");
  const { year, month, limit = "50", cursor } = q.data;
  const n = Number(limit);
  if (n < 1 || n > MAX_DIARY_LIMIT) invalidQuery(`limit must be 1-${MAX_DIARY_LIMIT}.`);
  if (month !== undefined && year === undefined) invalidQuery("month needs year.");
  let range: [string, string] | null = null;
  if (year !== undefined) {
    const y = Number(year);
    range = month === undefined
      ? [`${year}-01-01`, `${y + 1}-01-01`]
      : [dateOf(y, Number(month)), dateOf(y, Number(month) + 1)];
  }
  const at = cursor === undefined ? null : readCursor(cursor);
  if (cursor !== undefined && at === null) invalidQuery("cursor is not one this diary gave.");
  return { range, limit: n, cursor: at };
}

function dateOf(year: number, month: number): string {
  const y = month > 12 ? year + 1 : year;
  const m = month > 12 ? 1 : month;
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-01`;
}
