/**
 * The opaque cursor of a paged list read (docs/entries.md): the last card's place in the list's
 * order (its sort key, then the list's own order), and the sort it belongs to, so the next page
 * starts right after it with no gap or repeat even when cards are added or removed in between.
 */
import { Problem } from "@/lib/core/problem.ts";
import { isCalendarDate } from "./entry_fields.ts";

/** What of a read a cursor depends on (a list query's sort and order). */
type SortOf = { sort: string; order: string };

/** A place in a list's order. */
export interface ListCursor {
  /** `sort:order` of the read that made it; another sort refuses it. */
  sort: string;
  /** The sort key's value (text; null sorts last), absent for the list's own order. */
  key: string | null;
  /** Watched: `created_at` (ISO 8601, microseconds); My List: the position (1-based). */
  at: string;
  catalogId: number;
}

/** The sort a cursor belongs to. */
export function cursorSort(q: SortOf): string {
  return `${q.sort}:${q.order}`;
}

/** Encodes a place as the URL-safe text `nextCursor` carries. */
export function writeListCursor(at: ListCursor): string {
  const text = JSON.stringify([at.sort, at.key, at.at, at.catalogId]);
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

const ADDED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const POSITION = /^[1-9]\d{0,5}$/;

function decode(text: string): ListCursor | null {
  if (!/^[A-Za-z0-9_-]{1,1200}$/.test(text)) return null;
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
    const value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    if (!Array.isArray(value) || value.length !== 4) return null;
    const [sort, key, at, catalogId] = value;
    if (typeof sort !== "string" || (key !== null && typeof key !== "string")) return null;
    if (typeof at !== "string") return null;
    if (!Number.isInteger(catalogId) || catalogId < 1 || catalogId > 2_147_483_647) return null;
    if (key !== null && key.length > 400) return null;
    return { sort, key, at, catalogId };
  } catch {
    return null;
  }
}

/** Reads `text` as a cursor of `list` read as `q`; 400 `invalid_query` when it is not one. */
export function readListCursor(
  text: string,
  options: { list: "watched" | "mylist"; query: SortOf },
): ListCursor {
  const q = options.query;
  const cursor = decode(text);
  if (!cursor || cursor.sort !== cursorSort(q)) return invalid();
  if (options.list === "watched") {
    if (!ADDED_AT.test(cursor.at) || !isInstant(cursor.at)) return invalid();
  } else if (!POSITION.test(cursor.at)) return invalid();
  // A key must read as its sort's type, or the statement would fail on the cast.
  const key = cursor.key;
  if (key !== null) {
    const numeric = q.sort === "rating" || q.sort === "year" || q.sort === "runtime";
    if (numeric && !/^-?\d{1,9}$/.test(key)) return invalid();
    if (q.sort === "watched_on" && !isCalendarDate(key)) return invalid();
  }
  return cursor;
}

// A real instant: JavaScript would roll 2024-02-30 over to March; PostgreSQL refuses it.
function isInstant(at: string): boolean {
  const ms = Date.parse(at);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 19) === at.slice(0, 19);
}

function invalid(): never {
  throw new Problem(400, "invalid_query", "cursor is not one this list and sort gave.");
}
