/**
 * The bodies and queries of the list routes (docs/lists.md). The zod schemas are what GET
 * /api/openapi.json documents; the parsers give each failure a clear 400.
 */
import { z } from "zod";
import { catalogIdSchema as catalogId } from "@/lib/catalog/catalog_id.ts";
import { invalidCatalogId } from "../entries/write_payload.ts";
import { Problem } from "@/lib/core/problem.ts";

/** At most this many lists per user (400 `too_many_lists` past it). */
export const MAX_LISTS = 200;
/** At most this many items per list (400 `list_full` past it). */
export const MAX_ITEMS = 5000;
/** Longest name, description and item note, in characters after trimming. */
export const MAX_NAME = 100;
export const MAX_DESCRIPTION = 2000;
export const MAX_ITEM_NOTE = 500;
/** A list page: `limit` from 1 to 500, 100 unless given. */
const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 100;

const chars = (s: string) => [...s.trim()].length;
// Lengths count code points after trimming, as Postgres `char_length` on the stored text.
const text = (min: number, max: number) =>
  z.string().refine((s) => chars(s) >= min && chars(s) <= max)
    .meta({ minLength: min, maxLength: max, description: `${min}-${max} characters, trimmed.` });

/** Who may read a list: only its owner, anyone with its link, or anyone (on the profile too). */
export const visibilitySchema = z.enum(["private", "unlisted", "public"]);
export type Visibility = z.infer<typeof visibilitySchema>;

const itemNote = text(0, MAX_ITEM_NOTE).nullable();

/** POST /api/lists. */
export const listCreateSchema = z.strictObject({
  name: text(1, MAX_NAME),
  description: text(0, MAX_DESCRIPTION).optional(),
  visibility: visibilitySchema.optional().meta({ description: "private unless given." }),
  ranked: z.boolean().optional().meta({ description: "false unless given." }),
});

/** PATCH /api/lists/:id: any of the fields, at least one. */
export const listPatchSchema = listCreateSchema.partial()
  .refine((b) => Object.keys(b).length > 0);

/** POST /api/lists/:id/items: appended unless `position` says where. */
export const itemAddSchema = z.strictObject({
  catalogId,
  note: itemNote.optional(),
  position: z.number().int().min(1).optional()
    .meta({ description: "1-based; past the end appends." }),
});

/** PATCH /api/lists/:id/items/:catalogId: a move (renumbering the others) and/or a note. */
export const itemPatchSchema = z.strictObject({
  position: z.number().int().min(1).optional()
    .meta({ description: "1-based; past the end moves it last." }),
  note: itemNote.optional(),
}).refine((b) => Object.keys(b).length > 0);

/** GET /api/lists/:id and GET /api/shared/:slug. */
export const pageQuerySchema = z.object({
  limit: z.string().regex(/^\d{1,3}$/).transform(Number)
    .pipe(z.number().int().min(1).max(MAX_PAGE_SIZE)).optional()
    .meta({ description: `1-${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}.` }),
  cursor: z.string().max(40).optional().meta({ description: "nextCursor of the page before." }),
});

/** A list id in a path (anything else is a list nobody has: 404). */
export const listIdParam = z.string().uuid();

/** A list's fields as stored. */
export interface ListFields {
  name?: string;
  description?: string;
  visibility?: Visibility;
  ranked?: boolean;
}

function invalidBody(detail: string): Problem {
  return new Problem(400, "invalid_body", detail);
}

function trimmed<T extends { name?: string; description?: string }>(b: T): T {
  return {
    ...b,
    ...(b.name !== undefined ? { name: b.name.trim() } : {}),
    ...(b.description !== undefined ? { description: b.description.trim() } : {}),
  };
}

const LIST_RULE = `name (1-${MAX_NAME} characters), description (at most ${MAX_DESCRIPTION}), ` +
  `visibility (private, unlisted or public), ranked (true or false)`;

/** A new list's fields. */
export function parseListCreate(body: unknown): Required<Pick<ListFields, "name">> & ListFields {
  const r = listCreateSchema.safeParse(body);
  if (!r.success) throw invalidBody(`A list takes ${LIST_RULE}; nothing else.`);
  return trimmed(r.data);
}

/** The fields a PATCH changes. */
export function parseListPatch(body: unknown): ListFields {
  const r = listPatchSchema.safeParse(body);
  if (!r.success) throw invalidBody(`Send at least one of ${LIST_RULE}; nothing else.`);
  return trimmed(r.data);
}

/** An item to add. */
export interface ItemAdd {
  catalogId: number;
  note?: string | null;
  position?: number;
}

/** An item change. */
export interface ItemPatch {
  position?: number;
  note?: string | null;
}

const noteOf = (n: string | null | undefined) =>
  n === undefined ? undefined : (n === null || n.trim() === "" ? null : n.trim());

function catalogIdFirst(body: unknown) {
  if (body && typeof body === "object" && "catalogId" in body) {
    if (!catalogId.safeParse((body as { catalogId: unknown }).catalogId).success) {
      throw invalidCatalogId();
    }
  }
}

/** POST /api/lists/:id/items's body. */
export function parseItemAdd(body: unknown): ItemAdd {
  catalogIdFirst(body);
  const r = itemAddSchema.safeParse(body);
  if (!r.success) {
    throw invalidBody(
      `An item takes catalogId, note (at most ${MAX_ITEM_NOTE} characters, or null) and ` +
        "position (an integer from 1); nothing else.",
    );
  }
  return { ...r.data, note: noteOf(r.data.note) };
}

/** PATCH /api/lists/:id/items/:catalogId's body. */
export function parseItemPatch(body: unknown): ItemPatch {
  const r = itemPatchSchema.safeParse(body);
  if (!r.success) {
    throw invalidBody(
      `Send position (an integer from 1) and/or note (at most ${MAX_ITEM_NOTE} characters, ` +
        "or null); nothing else.",
    );
  }
  const patch: ItemPatch = {};
  if (r.data.position !== undefined) patch.position = r.data.position;
  if (r.data.note !== undefined) patch.note = noteOf(r.data.note);
  return patch;
}
