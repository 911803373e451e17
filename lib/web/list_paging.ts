/**
 * Paging of the website's list pages (docs/website.md): 60 cards a page, `?page=N` in the URL
 * (no JavaScript needed), and the API read that "More" fetches to append the next page in place.
 */
import { MAX_WATCHED } from "../lists/limits.ts";
import type { ListPage, ListQuery, ListsService } from "../lists/mod.ts";

/** Cards a list page shows at once. */
const LIST_PAGE_SIZE = 60;

const LAST_PAGE = Math.ceil(MAX_WATCHED / LIST_PAGE_SIZE) + 1;

/** The page the URL asks for: `?page=N`, 1 when absent or not a whole number in range. */
function pageNumber(params: URLSearchParams): number {
  const text = params.get("page") ?? "";
  if (!/^[1-9][0-9]{0,5}$/.test(text)) return 1;
  return Math.min(Number(text), LAST_PAGE);
}

/** The read of page `page` of a list as `query` sorts and filters it. */
function pageQuery(query: ListQuery, page: number): ListQuery {
  return {
    ...query,
    page: { limit: LIST_PAGE_SIZE, offset: (page - 1) * LIST_PAGE_SIZE },
  };
}

/** The URL of page `page`, keeping the URL's other parameters (sort, filters). */
function pageHref(url: URL, page: number): string {
  const params = new URLSearchParams(url.search);
  if (page <= 1) params.delete("page");
  else params.set("page", String(page));
  const search = params.toString();
  return search ? `${url.pathname}?${search}` : url.pathname;
}

/** The API read of the page after `cursor`, with the same sort, filters and inclusions. */
function moreApiPath(
  list: "watched" | "mylist",
  options: { query: ListQuery; cursor: string },
): string {
  const q = options.query;
  const params = new URLSearchParams({ sort: q.sort, order: q.order });
  if (q.genre !== undefined) params.set("genre", q.genre);
  if (q.rated !== undefined) params.set("rated", String(q.rated));
  const include = [
    ...(q.includeEntry && list === "watched" ? ["entry"] : []),
    ...(q.includeAvailability ? ["availability"] : []),
  ];
  if (include.length > 0) params.set("include", include.join(","));
  if (q.availableMine) params.set("available", "mine");
  params.set("limit", String(LIST_PAGE_SIZE));
  params.set("cursor", options.cursor);
  return `/api/${list}?${params}`;
}

/** What a list page shows of its list: one page's cards and where that page stands. */
interface ListPaging {
  cards: ListPage["movies"];
  paging: {
    page: number;
    total: number;
    /** The position of the page's first card (1-based). */
    first: number;
    more?: { href: string; api: string };
    firstHref?: string;
  };
}

/** Reads the page `url` asks for (`?page=N`) of `list` as `query` sorts and filters it. */
export async function listPaging(
  lists: ListsService,
  userId: string,
  options: { list: "watched" | "mylist"; query: ListQuery; url: URL },
): Promise<ListPaging> {
  const { list, query, url } = options;
  const page = pageNumber(url.searchParams);
  const read = await lists.page(list, userId, { query: pageQuery(query, page) });
  return {
    cards: read.movies,
    paging: {
      page,
      total: read.total,
      first: (page - 1) * LIST_PAGE_SIZE + 1,
      ...(read.nextCursor
        ? {
          more: {
            href: pageHref(url, page + 1),
            api: moreApiPath(list, { query, cursor: read.nextCursor }),
          },
        }
        : {}),
      ...(page > 1 ? { firstHref: pageHref(url, 1) } : {}),
    },
  };
}
