/**
 * The unmatched report of a run, read a page at a time: `GET /api/import/:id/unmatched`
 * pages it by cursor, and its CSV download reads every page in turn.
 */
import type { Sql } from "@/lib/platform/store/mod.ts";
import type { UnmatchedReason } from "./match.ts";

/** One unmatched film of the report, with how many rows of the file named it. */
export interface UnmatchedFilm {
  title: string;
  year: number | null;
  reason: UnmatchedReason;
  rows: number;
}

/** A page of the report; `nextCursor` is null on the last page. */
export interface UnmatchedPage {
  unmatched: UnmatchedFilm[];
  nextCursor: string | null;
}

/** Films per page of the API. */
export const UNMATCHED_PAGE = 100;

/**
 * The films after `after` (0: from the start) of the user's run `id`, at most `limit`, in one
 * query; null when the user has no such run.
 */
export async function unmatchedPage(
  sql: Sql,
  run: { userId: string; id: string },
  page: { after: number; limit: number },
): Promise<UnmatchedPage | null> {
  const rows = await sql.query<{
    ord: number | null;
    title: string;
    year: number | null;
    reason: UnmatchedReason;
    file_rows: number;
  }>(
    `select u.ord, u.title, u.year, u.reason, u.file_rows
       from public.history_imports r
       left join lateral (
         select * from public.history_import_unmatched x
          where x.import_id = r.id and x.ord > $3 order by x.ord limit $4
       ) u on true
      where r.id = $1 and r.user_id = $2
      order by u.ord`,
    [run.id, run.userId, page.after, page.limit + 1],
  );
  if (rows.length === 0) return null;
  const films = rows.filter((r) => r.ord !== null).map((r) => ({
    ord: Number(r.ord),
    title: r.title,
    year: r.year === null ? null : Number(r.year),
    reason: r.reason,
    rows: Number(r.file_rows),
  }));
  const more = films.length > page.limit;
  const shown = films.slice(0, page.limit);
  return {
    unmatched: shown.map(({ ord: _, ...film }) => film),
    nextCursor: more ? String(shown[shown.length - 1].ord) : null,
  };
}
