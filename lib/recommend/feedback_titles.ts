/**
 * The user's 👍/👎 on earlier picks (table `recommend_feedback`, written by
 * POST /api/recommend/feedback) as the titles the AI's prompt lists (docs/recommend.md, "Two
 * stages"): one statement, at most FEEDBACK_TITLES of each, newest first.
 */
import type { Sql } from "../platform/store/mod.ts";
import { FEEDBACK_TITLES, type FeedbackTitles } from "./prompt_extras.ts";
import { label } from "./prompt.ts";

const FEEDBACK_SQL = `select title, year, value from (
    select m.title, m.year, f.value,
           row_number() over (partition by f.value order by f.created_at desc, f.catalog_id desc)
             as n
      from public.recommend_feedback f
      join public.movies m on m.catalog_id = f.catalog_id
     where f.user_id = $1 and m.title <> ''
  ) r
  where n <= ${FEEDBACK_TITLES}
  order by value desc, n`;

/** Reads the user's 👍 and 👎 titles inside the user's transaction `tx`. */
export async function loadFeedbackTitles(tx: Sql, userId: string): Promise<FeedbackTitles> {
  const rows = await tx.query<{ title: string; year: number; value: number }>(FEEDBACK_SQL, [
    userId,
  ]);
  const feedback: FeedbackTitles = { liked: [], disliked: [] };
  for (const row of rows) {
    const line = label({ title: row.title, year: Number(row.year) });
    (Number(row.value) > 0 ? feedback.liked : feedback.disliked).push(line);
  }
  return feedback;
}
