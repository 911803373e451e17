/** `/mylist`: the signed-in user's saved movies, in saved order unless the URL asks otherwise. */
import { isOrder } from "../components/ListControls.tsx";
import { ListPage, type ListPageData } from "../components/ListPage.tsx";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import { parsePageQuery } from "../lib/lists/list_query.ts";

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    if (!user) return c.var.render(undefined);
    const params = new URL(c.req.url).searchParams;
    const query = parsePageQuery(params, "mylist");
    const cards = await c.var.services.lists.myList(user.id, { query });
    return c.var.render({ cards, query, orderGiven: isOrder(params) } satisfies ListPageData);
  },
};

export default function MyList({ data, url }: PageProps<ListPageData | undefined>) {
  return (
    <ListPage
      list="mylist"
      heading="My List"
      intro="Movies you want to watch. Marking one as watched takes it off this list."
      data={data}
      path={url.pathname}
    />
  );
}
