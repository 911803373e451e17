/**
 * `/s/:slug`: a shared list, for anyone with the link (no account): Open Graph tags so the
 * link previews well in a chat, `noindex` unless the list is public; never an email or id.
 */
import { HeadMeta } from "@/components/HeadMeta.tsx";
import { PageCount } from "@/components/PageCount.tsx";
import { Title } from "@/components/Title.tsx";
import type { Handlers, PageProps } from "@/lib/http/app_env.ts";
import { publicReadLimit } from "@/lib/http/middleware/public_read_limit.ts";
import { usePage } from "@/lib/http/page_context.ts";
import type { SharedPage } from "@/lib/library/lists/mod.ts";
import { LIST_PAGE_SIZE, type PageStanding } from "@/lib/web/page_links.ts";
import { cardPosterUrl } from "@/lib/web/poster.ts";
import { listPaging } from "@/lib/web/list_paging.ts";
import { SharedGrid } from "@/islands.gen.ts";

/** Limited per client address, as the shared read of the API. */
export const middleware = [publicReadLimit()];

interface Data {
  shared: SharedPage & { visibility: string };
  paging: PageStanding;
  siteUrl: string;
}

export const handler: Handlers = {
  async GET(c) {
    const slug = c.req.param("slug") ?? "";
    const { read, paging } = await listPaging(new URL(c.req.url), {
      api: `/api/shared/${slug}`,
      read: (page) => c.var.services.lists.shared(slug, page),
    });
    return c.var.render(
      { shared: read, paging, siteUrl: c.var.deps.config.siteUrl } satisfies Data,
    );
  },
};

/** "by Ana (@ana)" when the owner made a profile. */
function byline(owner: SharedPage["list"]["owner"]): string {
  return owner ? `by ${owner.displayName} (@${owner.handle})` : "";
}

export default function Shared({ data, url }: PageProps<Data>) {
  const { imageBaseUrl } = usePage();
  const { list, movies, visibility } = data.shared;
  const count = `${list.count} ${list.count === 1 ? "movie" : "movies"}`;
  const summary = list.description ||
    `A list of ${count}${list.owner ? ` ${byline(list.owner)}` : ""}.`;
  const poster = movies.find((m) => m.posterPath)?.posterPath;
  const tags: Record<string, string>[] = [
    { name: "description", content: summary.slice(0, 300) },
    { property: "og:type", content: "website" },
    { property: "og:title", content: list.name },
    { property: "og:description", content: summary.slice(0, 300) },
    { property: "og:url", content: `${data.siteUrl}${url.pathname}` },
    { name: "twitter:card", content: poster ? "summary_large_image" : "summary" },
  ];
  if (poster) {
    tags.push({ property: "og:image", content: cardPosterUrl(imageBaseUrl, poster, "w500") });
  }
  if (visibility !== "public") tags.push({ name: "robots", content: "noindex" });
  return (
    <section aria-labelledby="shared-title" class="shared-list">
      <Title>{list.name}</Title>
      <HeadMeta tags={tags} />
      <h1 id="shared-title">{list.name}</h1>
      <p class="muted">
        {count}
        {list.ranked ? " · ranked" : ""}
        {list.owner
          ? (
            <>
              {" · by "}
              <a href={`/u/${list.owner.handle}`}>{list.owner.displayName}</a>
            </>
          )
          : null}
      </p>
      {list.description ? <p class="list-description">{list.description}</p> : null}
      {list.count > LIST_PAGE_SIZE || data.paging.page > 1 ? <PageCount {...data.paging} /> : null}
      {list.count === 0
        ? <p class="empty">This list is empty for now.</p>
        : movies.length === 0
        ? null
        : (
          <SharedGrid
            name={list.name}
            ranked={list.ranked}
            movies={movies}
            imageBaseUrl={imageBaseUrl}
            more={data.paging.more}
          />
        )}
    </section>
  );
}
