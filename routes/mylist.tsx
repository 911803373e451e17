/** `/mylist`: the signed-in user's saved movies, in the order they were added. */
import { ListPage } from "../components/ListPage.tsx";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import type { MovieCard } from "../lib/lists/cards.ts";

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    return c.var.render(user ? await c.var.services.lists.myList(user.id) : undefined);
  },
};

export default function MyList({ data, url }: PageProps<MovieCard[] | undefined>) {
  return (
    <ListPage
      list="mylist"
      heading="My List"
      intro="Movies you want to watch. Marking one as watched takes it off this list."
      cards={data}
      path={url.pathname}
    />
  );
}
