/**
 * `/diary`: the signed-in user's viewings, newest first, grouped by month, each with its
 * rewatch mark and edited in place; `?page=` turns pages on the server, no JavaScript needed.
 */
import { SignInPrompt } from "../components/SignInPrompt.tsx";
import { Title } from "../components/Title.tsx";
import type { DiaryEntry, DiaryPage } from "../lib/diary/mod.ts";
import { readCursor } from "../lib/diary/mod.ts";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import { DiaryEntry as DiaryEntryView } from "../islands.gen.ts";

/** Entries a page of the website shows. */
const PAGE_SIZE = 60;

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    if (!user) return c.var.render(undefined);
    // A stale or hand-made cursor starts from the newest rather than failing the page.
    const cursor = readCursor(c.req.query("after") ?? "");
    const page = await c.var.services.diary.page(user.id, {
      range: null,
      limit: PAGE_SIZE,
      cursor,
    });
    return c.var.render(page);
  },
};

const monthName = (watchedOn: string) =>
  new Date(`${watchedOn.slice(0, 7)}-01T00:00:00Z`).toLocaleDateString("en", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });

function byMonth(entries: DiaryEntry[]): [string, DiaryEntry[]][] {
  const months = new Map<string, DiaryEntry[]>();
  for (const e of entries) {
    const key = e.watchedOn.slice(0, 7);
    months.set(key, [...(months.get(key) ?? []), e]);
  }
  return [...months];
}

export default function Diary({ data, url }: PageProps<DiaryPage | undefined>) {
  return (
    <section aria-labelledby="diary-heading">
      <Title>Diary</Title>
      <h1 id="diary-heading">Diary</h1>
      <p class="lead">
        Every time you watched a film, newest first. <a href="/stats">Your year in review</a>
      </p>
      {!data ? <SignInPrompt what="keep your diary" next={url.pathname} /> : null}
      {data && data.entries.length === 0
        ? <p>Nothing logged yet: open a movie and choose “Log a viewing”, or import a diary.</p>
        : null}
      {data
        ? byMonth(data.entries).map(([key, entries]) => (
          <section key={key} class="diary-month" aria-labelledby={`m-${key}`}>
            <h2 id={`m-${key}`}>{monthName(`${key}-01`)}</h2>
            <ol class="diary-list">
              {entries.map((e) => (
                <li key={e.id}>
                  <DiaryEntryView
                    id={e.id}
                    catalogId={e.catalogId}
                    title={e.title}
                    year={e.year}
                    watchedOn={e.watchedOn}
                    rating={e.rating}
                    rewatch={e.rewatch}
                    note={e.note}
                  />
                </li>
              ))}
            </ol>
          </section>
        ))
        : null}
      {data?.nextCursor
        ? (
          <nav class="pager" aria-label="Pages">
            <a href={`/diary?after=${data.nextCursor}`}>Older entries →</a>
          </nav>
        )
        : null}
    </section>
  );
}
