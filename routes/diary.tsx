/**
 * `/diary`: the signed-in user's viewings, newest first, grouped by month, each with its
 * rewatch mark and edited in place; 60 a page (`?page=N`, no JavaScript needed), "More"
 * appending the next 60 in place with it, and the count of the whole diary from SQL.
 */
import { PageCount } from "../components/PageCount.tsx";
import { SignInPrompt } from "../components/SignInPrompt.tsx";
import { Title } from "../components/Title.tsx";
import type { DiaryItem } from "../components/DiaryEntry.tsx";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import { notePreview } from "../lib/web/note_preview.ts";
import {
  LIST_PAGE_SIZE,
  pageNumber,
  type PageStanding,
  pageStanding,
} from "../lib/web/page_links.ts";
import { DiaryList } from "../islands.gen.ts";

/** The furthest page a URL may ask for: a diary of a million viewings. */
const LAST_PAGE = Math.ceil(1_000_000 / LIST_PAGE_SIZE);

interface Data {
  entries: DiaryItem[];
  paging: PageStanding;
}

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    if (!user) return c.var.render(undefined);
    const url = new URL(c.req.url);
    const page = pageNumber(url.searchParams, LAST_PAGE);
    const read = await c.var.services.diary.page(user.id, {
      range: null,
      limit: LIST_PAGE_SIZE,
      cursor: null,
      offset: (page - 1) * LIST_PAGE_SIZE,
      count: true,
    });
    // "More" reads on from this page's last entry by the API's cursor.
    const api = read.nextCursor
      ? `/api/diary?limit=${LIST_PAGE_SIZE}&cursor=${read.nextCursor}`
      : undefined;
    const entries = read.entries.map(({ posterPath: _p, note, ...e }) => ({
      ...e,
      ...notePreview(note),
    }));
    return c.var.render(
      { entries, paging: pageStanding(url, { page, total: read.total ?? 0, api }) } satisfies Data,
    );
  },
};

export default function Diary({ data, url }: PageProps<Data | undefined>) {
  return (
    <section aria-labelledby="diary-heading">
      <Title>Diary</Title>
      <h1 id="diary-heading">Diary</h1>
      <p class="lead">
        Every time you watched a film, newest first. <a href="/stats">Your year in review</a>
      </p>
      {!data ? <SignInPrompt what="keep your diary" next={url.pathname} /> : null}
      {data && data.paging.total === 0
        ? <p>Nothing logged yet: open a movie and choose “Log a viewing”, or import a diary.</p>
        : null}
      {data && data.paging.total > 0
        ? (
          <>
            <PageCount {...data.paging} noun={["entry", "entries"]} />
            <DiaryList entries={data.entries} more={data.paging.more} />
          </>
        )
        : null}
    </section>
  );
}
