/**
 * The unmatched report as a CSV download: `Title,Year,Reason,Rows,Search`, the last a link to
 * the site's search for the title. Read a page at a time and streamed, so a report of 300,000
 * films is never held whole. A cell a spreadsheet would run as a formula (starting with `=`,
 * `+`, `-`, `@`, a tab or a CR) is written with a leading `'` (OWASP's CSV injection rule).
 */
import { stringify } from "csv-stringify/sync";
import type { Sql } from "@/lib/platform/store/mod.ts";
import { type UnmatchedFilm, unmatchedPage } from "./unmatched.ts";

const PAGE = 1000;
const FORMULA = /^[=+\-@\t\r]/;

/** A cell as a spreadsheet will show it, never as a formula. */
function safeCell(value: string): string {
  return FORMULA.test(value) ? `'${value}` : value;
}

/** The site's search page for `title`. */
function searchLink(siteUrl: string, film: Pick<UnmatchedFilm, "title">): string {
  return `${siteUrl.replace(/\/+$/, "")}/search?q=${encodeURIComponent(film.title)}`;
}

function lines(films: UnmatchedFilm[], siteUrl: string): string {
  return stringify(
    films.map((f) => [
      safeCell(f.title),
      f.year ?? "",
      f.reason,
      f.rows,
      searchLink(siteUrl, f),
    ]),
    { record_delimiter: "\r\n" },
  );
}

/**
 * The report of the user's run `id` as CSV bytes, or null when the user has no such run
 * (checked before the answer starts).
 */
export async function unmatchedCsv(
  sql: Sql,
  run: { userId: string; id: string },
  siteUrl: string,
): Promise<ReadableStream<Uint8Array> | null> {
  const first = await unmatchedPage(sql, run, { after: 0, limit: PAGE });
  if (!first) return null;
  const encoder = new TextEncoder();
  let page: typeof first | null = first;
  let after = 0;
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode("Title,Year,Reason,Rows,Search\r\n"));
      }
      if (!page) {
        page = await unmatchedPage(sql, run, { after, limit: PAGE });
        if (!page) return controller.close();
      }
      if (page.unmatched.length > 0) {
        controller.enqueue(encoder.encode(lines(page.unmatched, siteUrl)));
      }
      if (page.nextCursor === null) return controller.close();
      after = Number(page.nextCursor);
      page = null;
    },
  });
}
