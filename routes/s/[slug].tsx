/**
 * `/s/:slug`: a shared list, for anyone with the link (no account): Open Graph tags so the
 * link previews well in a chat, `noindex` unless the list is public; never an email or id.
 */
import { HeadMeta } from "../../components/HeadMeta.tsx";
import { cardFacts, MovieCard } from "../../components/MovieCard.tsx";
import { MovieGrid } from "../../components/MovieGrid.tsx";
import { Title } from "../../components/Title.tsx";
import type { Handlers, PageProps } from "../../lib/http/app_env.ts";
import { publicReadLimit } from "../../lib/http/middleware/public_read_limit.ts";
import { usePage } from "../../lib/http/page_context.ts";
import type { SharedPage } from "../../lib/user_lists/mod.ts";
import { cardPosterUrl } from "../../lib/web/poster.ts";

/** Limited per client address, as the shared read of the API. */
export const middleware = [publicReadLimit()];

/** Cards a page, as every list page of the site. */
const PAGE_SIZE = 60;

interface Data {
  shared: SharedPage & { visibility: string };
  number: number;
  siteUrl: string;
}

export const handler: Handlers = {
  async GET(c) {
    const raw = Number(c.req.query("page") ?? "1");
    const number = Number.isInteger(raw) && raw >= 1 && raw <= 100 ? raw : 1;
    const shared = await c.var.services.userLists.shared(c.req.param("slug") ?? "", {
      after: (number - 1) * PAGE_SIZE,
      limit: PAGE_SIZE,
    });
    return c.var.render({ shared, number, siteUrl: c.var.deps.config.siteUrl } satisfies Data);
  },
};

/** "by Ana (@ana)" when the owner made a profile. */
function byline(owner: SharedPage["list"]["owner"]): string {
  return owner ? `by ${owner.displayName} (@${owner.handle})` : "";
}

export default function Shared({ data, url }: PageProps<Data>) {
  const { imageBaseUrl } = usePage();
  const { list, movies, nextCursor, visibility } = data.shared;
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
      {movies.length === 0
        ? <p class="empty">This list is empty for now.</p>
        : (
          <MovieGrid label={list.name}>
            {movies.map((m) => (
              <MovieCard
                key={m.catalogId}
                id={m.catalogId}
                title={list.ranked
                  ? `${m.position}. ${m.title || `Movie #${m.catalogId}`}`
                  : m.title}
                posterUrl={cardPosterUrl(imageBaseUrl, m.posterPath)}
                facts={cardFacts(m.year, m.genres)}
                details={m.note ? <p class="card-note">{m.note}</p> : undefined}
              />
            ))}
          </MovieGrid>
        )}
      <nav class="pager" aria-label="Pages">
        {data.number > 1 ? <a href={`?page=${data.number - 1}`}>Previous</a> : null}
        {nextCursor ? <a href={`?page=${data.number + 1}`}>More</a> : null}
      </nav>
    </section>
  );
}
