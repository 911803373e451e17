/**
 * Applying matched units to a user's lists (docs/history.md), one batch per transaction
 * as the user, under the lock every list write takes. Watched units add to the watched list
 * or update an entry: the latest watch date wins, a stored rating gives way only to a file
 * rating dated after it, a review becomes the note when there is none; they leave My List.
 * Watchlist units join My List unless watched. A unit's viewings (diary entries, plays) are
 * logged in the diary, once per movie and date (docs/diary.md). Applying the same units twice
 * changes nothing.
 */
import { logViewings, type NewViewing } from "@/lib/library/diary/mod.ts";
import { listRoom, MAX_MY_LIST } from "@/lib/library/entries/limits.ts";
import {
  lockLists,
  readMyList,
  replaceMyList,
  upsertWatched,
} from "@/lib/library/entries/writes.ts";
import type { Sql, Store } from "@/lib/platform/store/mod.ts";
import { applyListItems } from "@/lib/library/lists/import.ts";
import type { ImportUnit } from "./units.ts";

/** What a batch changed. */
interface ApplyCounts {
  added: number;
  updated: number;
  skipped: number;
  /** Rows skipped because the watched list or My List was full (docs/entries.md); in `skipped` too. */
  listFull: number;
  /**
   * Viewings (diary entries, plays) not logged because their film's or the diary's cap was
   * reached (docs/diary.md, "Limits"); their films are imported all the same.
   */
  tooManyViewings: number;
}

interface Entry {
  rating: number | null;
  watchedOn: string | null;
  note: string | null;
  /** The UTC day the entry was added: a stored rating is at least that recent. */
  addedOn: string;
}

const READ_SQL = `select catalog_id, rating, to_char(watched_on, 'YYYY-MM-DD') as watched_on, note,
    to_char((created_at at time zone 'utc')::date, 'YYYY-MM-DD') as added_on
  from public.user_watched_movies
  where user_id = (select auth.uid()) and catalog_id = any($1::integer[])`;

/** The entry after merging a unit into it (or into nothing); unchanged fields stay. */
function mergeEntry(existing: Entry | null, unit: ImportUnit, today: string): Entry {
  const entry: Entry = existing
    ? { ...existing }
    : { rating: null, watchedOn: null, note: null, addedOn: today };
  if (unit.watchedOn && (!entry.watchedOn || unit.watchedOn > entry.watchedOn)) {
    entry.watchedOn = unit.watchedOn;
  }
  if (unit.rating !== undefined && unit.rating !== entry.rating) {
    const stored = [entry.addedOn, existing?.watchedOn ?? ""].reduce((a, b) => (a > b ? a : b));
    if (entry.rating === null || (unit.ratedOn !== undefined && unit.ratedOn > stored)) {
      entry.rating = unit.rating;
    }
  }
  if (entry.note === null && unit.review) entry.note = unit.review;
  return entry;
}

const same = (a: Entry, b: Entry) =>
  a.rating === b.rating && a.watchedOn === b.watchedOn && a.note === b.note;

/**
 * Rows one write statement of a batch takes: each row fires the diary's statistics triggers,
 * and on the embedded store a statement holds the event loop until it ends (50 rows took up
 * to 71 ms of it); the store gives the loop a turn between two statements.
 */
const ROWS_PER_STATEMENT = 25;

/** `items` in pieces of at most `size`, in order. */
function pieces<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Viewings in pieces of about ROWS_PER_STATEMENT, a movie's viewings always in one piece (its
 * rewatches are worked out from them together).
 */
function viewingPieces(viewings: NewViewing[]): NewViewing[][] {
  const byMovie = new Map<number, NewViewing[]>();
  for (const v of viewings) {
    const movie = byMovie.get(v.catalogId);
    if (movie) movie.push(v);
    else byMovie.set(v.catalogId, [v]);
  }
  const out: NewViewing[][] = [];
  let piece: NewViewing[] = [];
  for (const movie of byMovie.values()) {
    if (piece.length > 0 && piece.length + movie.length > ROWS_PER_STATEMENT) {
      out.push(piece);
      piece = [];
    }
    piece.push(...movie);
  }
  if (piece.length > 0) out.push(piece);
  return out;
}

/** The viewings of a batch's watched units, one per movie and date (the first unit's wins). */
function viewingsOf(batch: { unit: ImportUnit; id: number }[]): NewViewing[] {
  const out = new Map<string, NewViewing>();
  for (const { unit, id } of batch) {
    if (!unit.watched) continue;
    for (const v of unit.viewings ?? []) {
      const key = `${id}|${v.on}`;
      if (out.has(key)) continue;
      out.set(key, {
        catalogId: id,
        watchedOn: v.on,
        rating: v.rating ?? null,
        note: v.note ?? null,
        rewatch: v.rewatch ?? false,
        source: "import",
      });
    }
  }
  return [...out.values()];
}

/** Applies one batch of matched units for `userId`; returns what changed. */
export function applyBatch(
  store: Store,
  userId: string,
  batch: { unit: ImportUnit; id: number }[],
  options: { now: number },
): Promise<ApplyCounts> {
  const counts: ApplyCounts = { added: 0, updated: 0, skipped: 0, listFull: 0, tooManyViewings: 0 };
  if (batch.length === 0) return Promise.resolve(counts);
  const today = new Date(options.now).toISOString().slice(0, 10);
  return store.asUser(userId, async (tx: Sql) => {
    // A batch takes its turn with the user's other list writes.
    await lockLists(tx, userId);
    const ids = [...new Set(batch.map((b) => b.id))];
    const entries = new Map<number, Entry>();
    for (const r of await tx.query<Record<string, unknown>>(READ_SQL, [ids])) {
      entries.set(Number(r.catalog_id), {
        rating: r.rating === null ? null : Number(r.rating),
        watchedOn: r.watched_on === null ? null : String(r.watched_on),
        note: r.note === null ? null : String(r.note),
        addedOn: String(r.added_on),
      });
    }
    const before = await readMyList(tx);
    const myList = [...before];
    const written = new Map<number, Entry>();
    // Past a list's limit the rest of the file is skipped, counted with its reason.
    let watchedRoom = await listRoom(tx, "watched");
    const pastLimit = new Set<number>();
    const skipFull = (rows: number) => {
      counts.skipped += rows;
      counts.listFull += rows;
    };
    for (const { unit, id } of batch) {
      if (!unit.watched) continue;
      const existing = written.get(id) ?? entries.get(id) ?? null;
      if (!existing && (watchedRoom <= 0 || pastLimit.has(id))) {
        pastLimit.add(id);
        skipFull(unit.rows);
        continue;
      }
      if (!existing) watchedRoom--;
      const merged = mergeEntry(existing, unit, today);
      if (!existing) counts.added++;
      else if (!same(existing, merged)) counts.updated++;
      if (!existing || !same(existing, merged)) written.set(id, merged);
      if (!entries.has(id)) entries.set(id, merged);
      counts.skipped += unit.listed;
      const at = myList.indexOf(id);
      if (at >= 0) myList.splice(at, 1);
    }
    for (const { unit, id } of batch) {
      // A movie named only by the file's own lists joins those, not My List.
      if (unit.watched || unit.listed === 0) continue;
      if (entries.has(id)) counts.skipped += unit.listed;
      else if (!myList.includes(id) && myList.length >= MAX_MY_LIST) skipFull(unit.listed);
      else if (!myList.includes(id)) {
        myList.push(id);
        counts.added++;
      }
    }
    const at = new Date(options.now).toISOString();
    const rows = [...written].map(([catalogId, e]) => ({ catalogId, ...e }));
    for (const piece of pieces(rows, ROWS_PER_STATEMENT)) {
      await upsertWatched(tx, piece, { addedAt: at, update: ["rating", "watchedOn", "note"] });
    }
    const kept = pastLimit.size === 0 ? batch : batch.filter((b) => !pastLimit.has(b.id));
    for (const piece of viewingPieces(viewingsOf(kept))) {
      counts.tooManyViewings += (await logViewings(tx, piece, { loggedAt: at })).overLimit;
    }
    if (myList.length !== before.length || myList.some((id, i) => id !== before[i])) {
      await replaceMyList(tx, myList, { updatedAt: at });
    }
    counts.added += await applyListItems(tx, batch, { now: options.now });
    return counts;
  });
}
