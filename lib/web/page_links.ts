/**
 * The page links every list page of the website shares (docs/website.md): 60 cards a page,
 * `?page=N` in the URL (no JavaScript needed), the other parameters (sort, filters) kept.
 */

/** Cards (or diary entries) a list page shows at once. */
export const LIST_PAGE_SIZE = 60;

/**
 * The page the URL asks for: `?page=N`, 1 when absent or not a whole number; past `last` reads
 * as `last` (a list's cap in pages, so no URL asks the database to skip more rows than a list
 * can hold).
 */
export function pageNumber(params: URLSearchParams, last: number): number {
  const text = params.get("page") ?? "";
  if (!/^[1-9][0-9]{0,5}$/.test(text)) return 1;
  return Math.min(Number(text), last);
}

/** The URL of page `page`, keeping the URL's other parameters (sort, filters). */
function pageHref(url: URL, page: number): string {
  const params = new URLSearchParams(url.search);
  if (page <= 1) params.delete("page");
  else params.set("page", String(page));
  const search = params.toString();
  return search ? `${url.pathname}?${search}` : url.pathname;
}

/** Where one page of a list stands: its number, the list's total, the links around it. */
export interface PageStanding {
  page: number;
  total: number;
  /** The position of the page's first card (1-based). */
  first: number;
  /** The next page: its link (works without JavaScript) and the API read "More" appends. */
  more?: { href: string; api: string };
  /** Back to page 1, from any later page. */
  firstHref?: string;
}

/** The standing of page `page` of `url`, with `api` the read of the page after, if any. */
export function pageStanding(
  url: URL,
  options: { page: number; total: number; api?: string },
): PageStanding {
  const { page, total, api } = options;
  return {
    page,
    total,
    first: (page - 1) * LIST_PAGE_SIZE + 1,
    ...(api ? { more: { href: pageHref(url, page + 1), api } } : {}),
    ...(page > 1 ? { firstHref: pageHref(url, 1) } : {}),
  };
}
