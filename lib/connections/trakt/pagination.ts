/**
 * Trakt's pagination (docs/trakt.md, "Reads"): `page` from 1 and `limit` from 1 to 1,000; with
 * neither, a read answers everything as one page; with either, `limit` defaults to 10 and
 * `page` to 1. The answer says where it is in X-Pagination-* headers.
 */
import { Problem } from "@/lib/core/problem.ts";

/** The largest `limit` a client may ask for. */
const MAX_LIMIT = 1000;
const DEFAULT_LIMIT = 10;

/** The page asked for, or null for everything. */
export interface PageAsk {
  page: number;
  limit: number;
}

function whole(name: string, raw: string, max: number): number {
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw new Problem(
      422,
      "invalid_pagination",
      `${name} must be a whole number from 1 to ${max}`,
    );
  }
  return Number(raw);
}

/** The page `page` and `limit` (the query's raw values) ask for; 422 for a bad value. */
export function parsePageAsk(
  query: { page?: string | null; limit?: string | null },
): PageAsk | null {
  const page = query.page ?? null;
  const limit = query.limit ?? null;
  if (page === null && limit === null) return null;
  return {
    page: page === null ? 1 : whole("page", page, 1_000_000),
    limit: limit === null ? DEFAULT_LIMIT : whole("limit", limit, MAX_LIMIT),
  };
}

/** The SQL `limit ... offset ...` of a page (numbers checked above), or "" for everything. */
export function pageSql(ask: PageAsk | null): string {
  return ask ? ` limit ${ask.limit} offset ${(ask.page - 1) * ask.limit}` : "";
}

/**
 * The X-Pagination-* headers of a read of `itemCount` items in all. Everything at once is page 1
 * of 1 with the count as its limit; a page count is never under 1, so page 1 always exists.
 */
export function paginationHeaders(ask: PageAsk | null, itemCount: number): Record<string, string> {
  const page = ask?.page ?? 1;
  const limit = ask?.limit ?? itemCount;
  const pageCount = ask ? Math.max(1, Math.ceil(itemCount / ask.limit)) : 1;
  return {
    "X-Pagination-Page": String(page),
    "X-Pagination-Limit": String(limit),
    "X-Pagination-Page-Count": String(pageCount),
    "X-Pagination-Item-Count": String(itemCount),
  };
}
