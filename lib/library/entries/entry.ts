/** A watched entry: the history of one watched movie (docs/entries.md). */
import type { Sql } from "@/lib/platform/store/mod.ts";
import { rateLatestViewing } from "../diary/latest_viewing.ts";
import type { EntryFields } from "./entry_fields.ts";

/** `{"catalogId","rating","watchedOn","note","addedAt"}` (addedAt ISO 8601, UTC). */
export interface WatchedEntry {
  catalogId: number;
  rating: number | null;
  watchedOn: string | null;
  note: string | null;
  addedAt: string;
}

/**
 * The entry columns over `l` (user_watched_movies), each under its own alias so they can sit
 * beside the card columns; dates are formatted by the store, the same on both engines.
 */
export const ENTRY_COLUMNS = `l.rating as "entryRating",
    l.watched_on::text as "entryWatchedOn",
    l.note as "entryNote",
    to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "entryAddedAt"`;

/** Shapes one row carrying ENTRY_COLUMNS and `catalogId` as an entry. */
export function toEntry(r: Record<string, unknown>): WatchedEntry {
  return {
    catalogId: Number(r.catalogId),
    rating: r.entryRating === null ? null : Number(r.entryRating),
    watchedOn: r.entryWatchedOn === null ? null : String(r.entryWatchedOn),
    note: r.entryNote === null ? null : String(r.entryNote),
    addedAt: String(r.entryAddedAt),
  };
}

// Read with the server's privileges, scoped to the verified user by $1 (as the list reads).
const ENTRY_SQL = `select l.catalog_id as "catalogId", ${ENTRY_COLUMNS}
  from public.user_watched_movies l
  where l.user_id = $1::uuid and l.catalog_id = $2`;

/** The user's entry for a movie, or undefined when it is not in their watched list. */
export async function readEntry(
  sql: Sql,
  key: { userId: string; catalogId: number },
): Promise<WatchedEntry | undefined> {
  const [row] = await sql.query(ENTRY_SQL, [key.userId, key.catalogId]);
  return row ? toEntry(row) : undefined;
}

const COLUMN = { rating: "rating", watchedOn: "watched_on", note: "note" } as const;

/** The columns of the fields named, in a fixed order. */
export function namedColumns(fields: EntryFields): { column: string; value: unknown }[] {
  return (Object.keys(COLUMN) as (keyof typeof COLUMN)[])
    .filter((key) => key in fields)
    .map((key) => ({ column: COLUMN[key], value: fields[key] }));
}

/**
 * Changes the named fields of the user's entry (run as the user, under row-level security);
 * undefined when the movie is not in their watched list. A rating reaches the movie's latest
 * viewing too, when it has one (docs/diary.md, "The summary").
 */
export async function updateEntry(
  tx: Sql,
  change: { catalogId: number; fields: EntryFields },
): Promise<WatchedEntry | undefined> {
  const named = namedColumns(change.fields);
  const set = named.map((n, i) => `${n.column} = $${i + 2}`);
  const [row] = await tx.query(
    `update public.user_watched_movies l set ${set.join(", ")}
     where l.user_id = (select auth.uid()) and l.catalog_id = $1
     returning l.catalog_id as "catalogId", ${ENTRY_COLUMNS}`,
    [change.catalogId, ...named.map((n) => n.value)],
  );
  // "Rate what you watched" rates the watched entry when its page knew no viewing: one may have
  // been logged since (a media server's webhook), and it must not stay unrated under a rated film.
  if (row && "rating" in change.fields) {
    await rateLatestViewing(tx, {
      catalogId: change.catalogId,
      rating: change.fields.rating ?? null,
    });
  }
  return row ? toEntry(row) : undefined;
}
