/**
 * 👍 and 👎 on a pick (docs/recommend.md, "Local picks"), in `recommend_feedback` under row-level
 * security. A 👎 also dismisses the film (lib/recommend/dismissed.ts), so it leaves the stored set
 * and every list of picks; undoing it, or turning it into a 👍, removes that dismissal. A 👍 never
 * hides a film: it only pulls the picks towards it.
 */
import { z } from "zod";
import { Problem } from "@/lib/core/problem.ts";
import { parseCatalogId } from "@/lib/library/entries/write_payload.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";
import { dismiss, undismiss } from "../dismissed.ts";

/** A thumb: 1 up, -1 down. */
export type FeedbackValue = 1 | -1;

const value = z.union([z.literal(1), z.literal(-1)]);

/** The body of POST /api/recommend/feedback: `{"catalogId","value":1|-1}`. */
export function parseFeedback(body: unknown): { catalogId: number; value: FeedbackValue } {
  const catalogId = parseCatalogId(body);
  const v = value.safeParse((body as { value?: unknown }).value);
  if (!v.success) throw new Problem(400, "invalid_body", "value must be 1 (👍) or -1 (👎).");
  return { catalogId, value: v.data };
}

/** Records the user's thumb on `catalogId` as the user of `tx` (a repeat changes nothing). */
export async function giveFeedback(
  tx: Sql,
  userId: string,
  options: { catalogId: number; value: FeedbackValue; now: number },
): Promise<void> {
  const { catalogId, now } = options;
  const [old] = await tx.query<{ value: number }>(
    `select value from public.recommend_feedback
      where user_id = (select auth.uid()) and catalog_id = $1 for update`,
    [catalogId],
  );
  if (options.value < 0) await dismiss(tx, userId, { catalogId, now });
  else if (old && Number(old.value) < 0) await undismiss(tx, catalogId);
  await tx.query(
    `insert into public.recommend_feedback (user_id, catalog_id, value, created_at)
     values ((select auth.uid()), $1, $2, $3::timestamptz)
     on conflict (user_id, catalog_id) do update
       set value = excluded.value, created_at = excluded.created_at
     where recommend_feedback.value <> excluded.value`,
    [catalogId, options.value, new Date(now).toISOString()],
  );
}

/** Takes the user's thumb on `catalogId` back; a 👎's dismissal goes with it. Absent: no error. */
export async function undoFeedback(tx: Sql, catalogId: number): Promise<void> {
  const removed = await tx.query<{ value: number }>(
    `delete from public.recommend_feedback
      where user_id = (select auth.uid()) and catalog_id = $1 returning value`,
    [catalogId],
  );
  if (removed.some((r) => Number(r.value) < 0)) await undismiss(tx, catalogId);
}
