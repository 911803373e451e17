/**
 * Logging many viewings at once, for a history import: the same rules as `logViewing` (one
 * viewing per movie, date and source; a repeat only fills what is missing; the rewatch marks
 * follow) in three statements whatever the batch's size. The movies' watched rows are the
 * caller's: an import merges them by its own rules (docs/history.md), so the summary is
 * not recomputed here.
 */
import { upsertWatched } from "../entries/writes.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";
import type { NewViewing } from "./log_viewing.ts";
import { fitViewings } from "./limits.ts";
import { syncRewatches } from "./sync.ts";

const VIEWINGS_SQL = `insert into public.user_viewings as t
    (user_id, catalog_id, watched_on, rating, note, source, rewatch, created_at)
  select (select auth.uid()), v.c, v.w, v.r, v.n, v.s, v.x::boolean, $7::timestamptz
    from unnest($1::integer[], $2::date[], $3::smallint[], $4::text[], $5::text[], $6::text[])
      as v(c, w, r, n, s, x)
  on conflict (user_id, catalog_id, watched_on, source) do update set
    rating = coalesce(t.rating, excluded.rating),
    note = coalesce(t.note, excluded.note),
    rewatch = t.rewatch or excluded.rewatch
  where t.rating is null and excluded.rating is not null
     or t.note is null and excluded.note is not null
     or not t.rewatch and excluded.rewatch
  returning (t.xmax::text = '0') as created`;

/**
 * Logs `viewings` inside a transaction running as their user, under the lists' lock; returns how
 * many were new and how many were left out past a film's or the diary's cap (docs/diary.md,
 * "Limits": in order, so a film keeps its first viewings of the batch). Each (movie, date,
 * source) must appear once in `viewings`.
 */
export async function logViewings(
  tx: Sql,
  all: NewViewing[],
  options: { loggedAt: string },
): Promise<{ created: number; overLimit: number }> {
  const { kept: viewings, refused } = await fitViewings(tx, all);
  if (viewings.length === 0) return { created: 0, overLimit: refused.length };
  // A movie already watched keeps its row (lib/library/entries/writes.ts): nothing is updated.
  const watched = viewings.map((v) => ({
    catalogId: v.catalogId,
    watchedOn: v.watchedOn,
    rating: null,
    note: null,
  }));
  await upsertWatched(tx, watched, { addedAt: options.loggedAt, update: [] });
  const rows = await tx.query<{ created: boolean }>(VIEWINGS_SQL, [
    viewings.map((v) => v.catalogId),
    viewings.map((v) => v.watchedOn),
    viewings.map((v) => v.rating ?? null),
    viewings.map((v) => v.note ?? null),
    viewings.map((v) => v.source),
    // As text: postgres.js sends a JS boolean array as a single boolean.
    viewings.map((v) => (v.rewatch ? "true" : "false")),
    options.loggedAt,
  ]);
  await syncRewatches(tx, [...new Set(viewings.map((v) => v.catalogId))]);
  return { created: rows.filter((r) => r.created).length, overLimit: refused.length };
}
