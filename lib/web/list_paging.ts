/**
 * Paging of the pages of a user's own list, /lists/:id and the shared /s/:slug (docs/website.md):
 * 60 cards a page, `?page=N` in the URL, the count of the whole list from SQL, and the API read
 * "More" appends in place (the list's position cursor).
 */
import type { PageRequest } from "../library/lists/mod.ts";
import { LIST_PAGE_SIZE, pageNumber, type PageStanding, pageStanding } from "./page_links.ts";

// A page starts at a position, which the list's (list, position) index finds directly, so no
// page costs more than another and any page a URL can name (six digits) is allowed.
const LAST_PAGE = 999_999;

/** What a list read gives that paging needs. */
interface ListRead {
  list: { count: number };
  nextCursor: string | null;
}

/**
 * Reads the page `url` asks for with `read`; `api` is the API path of the same list ("More"
 * adds `limit` and `cursor`).
 */
export async function listPaging<T extends ListRead>(
  url: URL,
  options: { api: string; read: (page: PageRequest) => Promise<T> },
): Promise<{ read: T; paging: PageStanding }> {
  const page = pageNumber(url.searchParams, LAST_PAGE);
  // Positions are 1..n, so page N starts after position (N - 1) * 60.
  const read = await options.read({ after: (page - 1) * LIST_PAGE_SIZE, limit: LIST_PAGE_SIZE });
  const api = read.nextCursor
    ? `${options.api}?limit=${LIST_PAGE_SIZE}&cursor=${read.nextCursor}`
    : undefined;
  return { read, paging: pageStanding(url, { page, total: read.list.count, api }) };
}
