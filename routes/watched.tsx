/** `/watched`: the signed-in user's watched movies, newest first. */
import { ListPage } from "../components/ListPage.tsx";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import type { MovieCard } from "../lib/lists/cards.ts";

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    return c.var.render(user ? await c.var.services.lists.watched(user.id) : undefined);
  },
};

export default function Watched({ data, url }: PageProps<MovieCard[] | undefined>) {
  return (
    <ListPage
      list="watched"
      heading="Watched"
      intro="Movies you've seen, most recent first. They shape your recommendations."
      cards={data}
      path={url.pathname}
    />
  );
}
