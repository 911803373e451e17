/** The statement of a watched add: a new row, or a repeated add that changes only what it names. */
import { namedColumns } from "./entry.ts";
import type { EntryFields } from "./entry_fields.ts";

/**
 * Inserts the user's row (run as the user): dated `today` unless `fields` name a watchedOn.
 * On a repeated add the fields named are updated and nothing else; naming none, nothing changes.
 */
export function insertWatchedSql(
  catalogId: number,
  options: { addedAt: string; today: string; fields: EntryFields },
): { text: string; params: unknown[] } {
  const { fields } = options;
  const named = namedColumns(fields);
  const conflict = named.length === 0
    ? "do nothing"
    : `do update set ${named.map((n) => `${n.column} = excluded.${n.column}`).join(", ")}`;
  return {
    text: `insert into public.user_watched_movies
        (user_id, catalog_id, created_at, watched_on, rating, note)
      values ((select auth.uid()), $1, $2, $3, $4, $5)
      on conflict (user_id, catalog_id) ${conflict}`,
    params: [
      catalogId,
      options.addedAt,
      "watchedOn" in fields ? fields.watchedOn : options.today,
      fields.rating ?? null,
      fields.note ?? null,
    ],
  };
}
