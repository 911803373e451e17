/** "Movies 1–60 of 1,234": where a list page stands in the whole list, counted in SQL. */
import type { PageStanding } from "../lib/web/page_links.ts";
import { LIST_PAGE_SIZE } from "../lib/web/page_links.ts";

/** The words of one thing and of many: ["movie", "movies"], ["entry", "entries"]. */
type Noun = readonly [one: string, many: string];

/** The count line, with a link back to the first page from any later one. */
export function PageCount(
  { total, first, page, firstHref, noun = ["movie", "movies"] }: PageStanding & { noun?: Noun },
) {
  const last = Math.min(total, first + LIST_PAGE_SIZE - 1);
  const n = (v: number) => v.toLocaleString("en");
  const [one, many] = noun;
  const Many = many[0].toUpperCase() + many.slice(1);
  return (
    <p class="list-count">
      {first > total
        ? `No ${many} on page ${page} (${n(total)} in all).`
        : total <= LIST_PAGE_SIZE
        ? `${n(total)} ${total === 1 ? one : many}`
        : `${Many} ${n(first)}–${n(last)} of ${n(total)}`}
      {firstHref
        ? (
          <>
            {" · "}
            <a href={firstHref}>Back to the first page</a>
          </>
        )
        : null}
    </p>
  );
}
