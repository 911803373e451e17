/**
 * `/watched`: the signed-in user's watched movies with their ratings and dates, newest first
 * unless the URL asks for another sort or a filter, and the numbers of the whole history.
 */
import { isOrder } from "../components/ListControls.tsx";
import { ListPage, type ListPageData } from "../components/ListPage.tsx";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import { parsePageQuery } from "../lib/library/entries/list_query.ts";
import { entriesPaging } from "../lib/web/entries_paging.ts";

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    if (!user) return c.var.render(undefined);
    const url = new URL(c.req.url);
    const params = url.searchParams;
    const query = { ...parsePageQuery(params, "watched"), includeEntry: true };
    // One page of 60 (?page=N); the numbers of the whole history come from SQL.
    const [{ cards, paging }, stats] = await Promise.all([
      entriesPaging(c.var.services.entries, user.id, { list: "watched", query, url }),
      c.var.services.entries.stats(user.id),
    ]);
    const year = new Date(c.var.deps.clock.now()).getUTCFullYear();
    return c.var.render(
      {
        cards,
        query,
        orderGiven: isOrder(params),
        stats: { stats, year },
        paging,
      } satisfies ListPageData,
    );
  },
};

export default function Watched({ data, url }: PageProps<ListPageData | undefined>) {
  return (
    <ListPage
      list="watched"
      heading="Watched"
      intro="Movies you've seen, with your ratings and dates. They shape your recommendations."
      data={data}
      path={url.pathname}
    />
  );
}
