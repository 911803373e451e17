/**
 * `/watched`: the signed-in user's watched movies with their ratings and dates, newest first
 * unless the URL asks for another sort or a filter, and the numbers of the whole history.
 */
import { isOrder } from "../components/ListControls.tsx";
import { ListPage, type ListPageData } from "../components/ListPage.tsx";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import { parsePageQuery } from "../lib/lists/list_query.ts";

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    if (!user) return c.var.render(undefined);
    const params = new URL(c.req.url).searchParams;
    const query = { ...parsePageQuery(params, "watched"), includeEntry: true };
    const [cards, stats] = await Promise.all([
      c.var.services.lists.watched(user.id, { query }),
      c.var.services.lists.stats(user.id),
    ]);
    const year = new Date(c.var.deps.clock.now()).getUTCFullYear();
    return c.var.render(
      { cards, query, orderGiven: isOrder(params), stats: { stats, year } } satisfies ListPageData,
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
