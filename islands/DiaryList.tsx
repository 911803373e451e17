/**
 * The entries of /diary grouped by month, newest first, each edited in place (DiaryEntry), and
 * "More": without JavaScript a link to `?page=N+1`; with it the next 60 entries are appended in
 * place (a month split across pages stays one month) and focus moves to the first new entry.
 */
import { useState } from "preact/hooks";
import { MoreLink } from "../components/MoreLink.tsx";
import { notePreview } from "../lib/web/note_preview.ts";
import { type NextPage, useMore } from "../lib/web/use_more.ts";
import { DiaryEntry, type DiaryItem } from "../components/DiaryEntry.tsx";

/** The page's entries and the page after them, if any. */
interface DiaryListProps {
  entries: DiaryItem[];
  more?: NextPage;
}

const monthName = (key: string) =>
  new Date(`${key}-01T00:00:00Z`).toLocaleDateString("en", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });

// Entries come newest first, so each month's are consecutive.
function byMonth(entries: DiaryItem[]): [string, DiaryItem[]][] {
  const months = new Map<string, DiaryItem[]>();
  for (const e of entries) {
    const key = e.watchedOn.slice(0, 7);
    const month = months.get(key);
    if (month) month.push(e);
    else months.set(key, [e]);
  }
  return [...months];
}

// The API's entry carries more than the page uses; the island keeps only these fields, and the
// note's preview as the server renders it.
const item = (e: DiaryItem): DiaryItem => ({
  id: e.id,
  catalogId: e.catalogId,
  title: e.title,
  year: e.year,
  watchedOn: e.watchedOn,
  rating: e.rating,
  rewatch: e.rewatch,
  source: e.source,
  ...notePreview(e.note),
});

/** The months, their entries, the status line and More. */
export default function DiaryList({ entries: initial, more: first }: DiaryListProps) {
  const [entries, setEntries] = useState(initial);
  const [status, setStatus] = useState("");
  const more = useMore(first, {
    auth: true,
    take: (body) => (body.entries as DiaryItem[]).map(item),
    append(page) {
      const known = new Set(entries.map((e) => e.id));
      const added = page.filter((e) => !known.has(e.id));
      setEntries((all) => [...all, ...added]);
      return added;
    },
    focusOf: (e) => `[data-entry="${e.id}"] a`,
    say: (text) => setStatus(text),
  });
  return (
    <div class="diary-pages">
      {byMonth(entries).map(([key, month]) => (
        <section key={key} class="diary-month" aria-labelledby={`m-${key}`}>
          <h2 id={`m-${key}`}>{monthName(key)}</h2>
          <ol class="diary-list">
            {month.map((e) => (
              <li key={e.id} data-entry={e.id}>
                <DiaryEntry {...e} />
              </li>
            ))}
          </ol>
        </section>
      ))}
      <p class="status" role="status">{status}</p>
      <MoreLink more={more} />
    </div>
  );
}
