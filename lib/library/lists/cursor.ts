/**
 * The opaque cursor of a list page: the position of the page's last item, base64url. Items
 * come in position order, so the next page is every item after it.
 */
import { Problem } from "@/lib/core/problem.ts";
import { positionCursor } from "@/lib/core/position_cursor.ts";
import { DEFAULT_PAGE_SIZE, pageQuerySchema } from "./payloads.ts";

/** Where a page starts (after this position; 0 from the top) and how many items it holds. */
export interface PageRequest {
  after: number;
  limit: number;
}

/** The cursor of the page that follows the item at `position`. */
export const encodeCursor = positionCursor;

function invalidQuery(detail: string): Problem {
  return new Problem(400, "invalid_query", detail);
}

function decodeCursor(cursor: string): number {
  let text = "";
  try {
    text = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    // falls through to the refusal below
  }
  const match = /^p(\d{1,9})$/.exec(text);
  if (!match) throw invalidQuery("cursor is not a nextCursor this service gave.");
  return Number(match[1]);
}

/** `limit` and `cursor` of a page read; 400 `invalid_query` for anything else. */
export function parsePage(params: URLSearchParams): PageRequest {
  const raw: Record<string, string> = {};
  for (const key of ["limit", "cursor"]) {
    const all = params.getAll(key);
    if (all.length > 1) throw invalidQuery(`${key} may be given once.`);
    if (all.length === 1) raw[key] = all[0];
  }
  const r = pageQuerySchema.safeParse(raw);
  if (!r.success) throw invalidQuery("limit must be an integer from 1 to 500.");
  return {
    limit: r.data.limit ?? DEFAULT_PAGE_SIZE,
    after: r.data.cursor === undefined ? 0 : decodeCursor(r.data.cursor),
  };
}
