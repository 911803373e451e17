/** `/lists/:id`: one of the user's lists, 60 items a page (`?page=`), to reorder and share. */
import { SignInPrompt } from "../../components/SignInPrompt.tsx";
import { Title } from "../../components/Title.tsx";
import type { Handlers, PageProps } from "../../lib/http/app_env.ts";
import { usePage } from "../../lib/http/page_context.ts";
import { listIdOf } from "../../lib/http/user_list_params.ts";
import type { ListPage } from "../../lib/user_lists/mod.ts";
import { ListEditor, ListSettings, ShareDialog } from "../../islands.gen.ts";

/** Cards a page, as every list page of the site. */
const PAGE_SIZE = 60;

interface Data {
  page: ListPage;
  number: number;
}

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    if (!user) return c.var.render(undefined);
    const raw = Number(c.req.query("page") ?? "1");
    const number = Number.isInteger(raw) && raw >= 1 && raw <= 100 ? raw : 1;
    // Positions are 1..n, so page N starts after position (N - 1) * 60.
    const page = await c.var.services.userLists.read(user.id, listIdOf(c), {
      after: (number - 1) * PAGE_SIZE,
      limit: PAGE_SIZE,
    });
    return c.var.render({ page, number } satisfies Data);
  },
};

export default function ListView({ data, url }: PageProps<Data | undefined>) {
  const { imageBaseUrl } = usePage();
  if (!data) {
    return <SignInPrompt what="see your lists" next={url.pathname} />;
  }
  const { list, movies, nextCursor } = data.page;
  return (
    <section aria-labelledby="list-title" class="list-view">
      <Title>{list.name}</Title>
      <p>
        <a href="/lists">← Your lists</a>
      </p>
      <h1 id="list-title">{list.name}</h1>
      {list.description ? <p class="list-description">{list.description}</p> : null}
      <p class="muted">
        {list.count} {list.count === 1 ? "movie" : "movies"}
        {list.ranked ? " · ranked" : ""}
      </p>
      <div class="list-toolbar">
        <ShareDialog listId={list.id} shareUrl={list.shareUrl} />
        <ListSettings list={list} />
      </div>
      {movies.length === 0
        ? <p class="empty">Nothing here yet: open a movie and choose “Add to list”.</p>
        : (
          <ListEditor
            listId={list.id}
            ranked={list.ranked}
            items={movies}
            count={list.count}
            imageBaseUrl={imageBaseUrl}
          />
        )}
      <nav class="pager" aria-label="Pages">
        {data.number > 1 ? <a href={`?page=${data.number - 1}`}>Previous</a> : null}
        {nextCursor ? <a href={`?page=${data.number + 1}`}>More</a> : null}
      </nav>
    </section>
  );
}
