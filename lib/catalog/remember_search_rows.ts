/**
 * Search rows a feature matched, kept in the movies store as light rows: the recommender's picks
 * (so a later prompt can name them, "not interested" included) and the matches of the history
 * import and the webhooks (so their cards hydrate at once). One rule for every caller: a movie the
 * store already has is left as it is, since a search row carries no vote count or popularity and
 * the light upsert would write its zeros over the stored ones (the recommender's store match
 * breaks ties by popularity).
 */
import { missingIds, upsertLight } from "./movies_store.ts";
import { searchLightRow, type SearchRowFields } from "./normalize.ts";
import type { Sql } from "../platform/store/mod.ts";

/** Stores the rows the movies store lacks as light rows (has_details false). */
export async function rememberSearchRows(
  sql: Sql,
  rows: SearchRowFields[],
  options: { now: number },
): Promise<void> {
  if (rows.length === 0) return;
  const missing = new Set(await missingIds(sql, rows.map((r) => r.id)));
  await upsertLight(sql, rows.filter((r) => missing.has(r.id)).map(searchLightRow), options);
}
