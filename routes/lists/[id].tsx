/**
 * `/lists/:id`: one of the user's lists, to reorder and share; 60 items a page (`?page=N`, no
 * JavaScript needed), "More" appending the next 60 in place with it.
 */
import { PageCount } from "@/components/PageCount.tsx";
import { SignInPrompt } from "@/components/SignInPrompt.tsx";
import { Title } from "@/components/Title.tsx";
import type { Handlers, PageProps } from "@/lib/http/app_env.ts";
import { usePage } from "@/lib/http/page_context.ts";
import { listIdOf } from "@/lib/http/list_params.ts";
import type { ListPage } from "@/lib/library/lists/mod.ts";
import { LIST_PAGE_SIZE, type PageStanding } from "@/lib/web/page_links.ts";
import { listPaging } from "@/lib/web/list_paging.ts";
import { ListEditor, ListSettings, ShareDialog } from "@/islands.gen.ts";

interface Data {
  page: ListPage;
  paging: PageStanding;
}

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    if (!user) return c.var.render(undefined);
    const id = listIdOf(c);
    const { read, paging } = await listPaging(new URL(c.req.url), {
      api: `/api/lists/${id}`,
      read: (page) => c.var.services.lists.read(user.id, id, page),
    });
    return c.var.render({ page: read, paging } satisfies Data);
  },
};

export default function ListView({ data, url }: PageProps<Data | undefined>) {
  const { imageBaseUrl } = usePage();
  if (!data) {
    return (
      <>
        <Title>Your list</Title>
        <h1>Your list</h1>
        <SignInPrompt what="see your lists" next={url.pathname} />
      </>
    );
  }
  const { list, movies } = data.page;
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
      {list.count > LIST_PAGE_SIZE || data.paging.page > 1 ? <PageCount {...data.paging} /> : null}
      <div class="list-toolbar">
        <ShareDialog listId={list.id} shareUrl={list.shareUrl} />
        <ListSettings list={list} />
      </div>
      {list.count === 0
        ? <p class="empty">Nothing here yet: open a movie and choose “Add to list”.</p>
        : movies.length === 0
        ? null
        : (
          <ListEditor
            listId={list.id}
            ranked={list.ranked}
            items={movies}
            count={list.count}
            imageBaseUrl={imageBaseUrl}
            more={data.paging.more}
          />
        )}
    </section>
  );
}
