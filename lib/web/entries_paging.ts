/**
 * Paging of the website's list pages (docs/website.md): 60 cards a page, `?page=N` in the URL
 * (no JavaScript needed), and the API read that "More" fetches to append the next page in place.
 */
import { MAX_WATCHED } from "../library/entries/limits.ts";
import type { EntriesService, ListPage, ListQuery } from "../library/entries/mod.ts";
import { LIST_PAGE_SIZE, pageNumber, type PageStanding, pageStanding } from "./page_links.ts";

const LAST_PAGE = Math.ceil(MAX_WATCHED / LIST_PAGE_SIZE) + 1;

/** The read of page `page` of a list as `query` sorts and filters it. */
function pageQuery(query: ListQuery, page: number): ListQuery {
  return {
    ...query,
    page: { limit: LIST_PAGE_SIZE, offset: (page - 1) * LIST_PAGE_SIZE },
  };
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
  paging: PageStanding;
}

/** Reads the page `url` asks for (`?page=N`) of `list` as `query` sorts and filters it. */
export async function entriesPaging(
  lists: EntriesService,
  userId: string,
  options: { list: "watched" | "mylist"; query: ListQuery; url: URL },
): Promise<ListPaging> {
  const { list, query, url } = options;
  const page = pageNumber(url.searchParams, LAST_PAGE);
  const read = await lists.page(list, userId, { query: pageQuery(query, page) });
  return {
    cards: read.movies,
    paging: pageStanding(url, {
      page,
      total: read.total,
      api: read.nextCursor ? moreApiPath(list, { query, cursor: read.nextCursor }) : undefined,
    }),
  };
}
