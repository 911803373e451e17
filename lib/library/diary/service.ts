/** The diary service: a user's viewings, logged, read, changed and removed (docs/diary.md). */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";
import { logViewing, type NewViewing } from "./log_viewing.ts";
import type { DiaryPatch, DiaryQuery } from "./payload.ts";
import {
  type DiaryPage,
  readDiaryEntry,
  readDiaryPage,
  readUnrated,
  type UnratedMovie,
} from "./read.ts";
import { readYearReview, type YearReview } from "./review.ts";
import { readYearStats, type YearStats } from "./stats.ts";
import { syncMovie } from "./sync.ts";
import type { DiaryEntry } from "./viewing.ts";

/** Fetches details of ids missing from the movies store after `userId`'s write, in the background. */
type Prefetch = (userId: string, ids: number[]) => unknown;

/** What the diary and stats routes (and imports and webhooks) call. */
export interface DiaryService {
  /** A page of the diary, newest first. */
  page(userId: string, query: DiaryQuery): Promise<DiaryPage>;
  /** One of the user's entries; 404 `not_found` when it is not theirs. */
  get(userId: string, id: string): Promise<DiaryEntry>;
  /** Logs a viewing; `created` is false when the same movie, date and source was there. */
  log(userId: string, viewing: NewViewing): Promise<{ entry: DiaryEntry; created: boolean }>;
  /** Changes the named fields of a viewing; 404 `not_found` when it is not the user's. */
  update(userId: string, change: { id: string; fields: DiaryPatch }): Promise<DiaryEntry>;
  /** Removes a viewing (the watched row stays); 404 `not_found` when it is not the user's. */
  remove(userId: string, id: string): Promise<void>;
  /** The queue of what to rate: watched movies without a rating, newest watch first. */
  unrated(userId: string, limit: number): Promise<UnratedMovie[]>;
  /** The numbers of a year (or, with null, of all time). */
  stats(userId: string, year: number | null): Promise<YearStats>;
  /** The year-in-review page's data: the numbers, the top rated cards, the years to link. */
  review(userId: string, year: number | null): Promise<YearReview>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function notFound(): never {
  throw new Problem(404, "not_found", "No such diary entry.");
}

const COLUMN = { watchedOn: "watched_on", rating: "rating", note: "note" } as const;

// The date a change would give must not be another viewing's of the same movie and source.
const CLASH_SQL = `select exists (select 1 from public.user_viewings o
    join public.user_viewings t on t.id = $1::uuid
    where o.user_id = (select auth.uid()) and o.catalog_id = t.catalog_id
      and o.source = t.source and o.watched_on = $2::date and o.id <> t.id) as clash`;

async function updateViewing(tx: Sql, id: string, fields: DiaryPatch): Promise<number | null> {
  if (fields.watchedOn !== undefined) {
    const [row] = await tx.query<{ clash: boolean }>(CLASH_SQL, [id, fields.watchedOn]);
    if (row.clash) {
      throw new Problem(
        409,
        "already_logged",
        "This movie already has a viewing on that date from the same source.",
      );
    }
  }
  const named = (Object.keys(COLUMN) as (keyof typeof COLUMN)[]).filter((k) => k in fields);
  const set = named.map((k, i) => `${COLUMN[k]} = $${i + 2}`);
  const [row] = await tx.query<{ catalogId: number }>(
    `update public.user_viewings set ${set.join(", ")}
     where user_id = (select auth.uid()) and id = $1::uuid
     returning catalog_id as "catalogId"`,
    [id, ...named.map((k) => fields[k] ?? null)],
  );
  return row ? Number(row.catalogId) : null;
}

/** Builds the diary service; `prefetch` is the catalog's background details fetch. */
export function createDiaryService(
  deps: AppDeps,
  options: { prefetch?: Prefetch } = {},
): DiaryService {
  const { store } = deps;
  const loggedAt = () => new Date(deps.clock.now()).toISOString();
  const entry = async (userId: string, id: string) =>
    await readDiaryEntry(store, { userId, id }) ?? notFound();

  return {
    page: (userId, query) => readDiaryPage(store, userId, query),
    get: (userId, id) => UUID.test(id) ? entry(userId, id) : notFound(),
    async log(userId, viewing) {
      const logged = await store.asUser(
        userId,
        (tx) => logViewing(tx, viewing, { userId, loggedAt: loggedAt() }),
      );
      const found = await entry(userId, logged.id);
      // A movie the store lacks gets its details in the background; never fails the log.
      if (found.title === "" && options.prefetch) {
        Promise.resolve().then(() => options.prefetch?.(userId, [viewing.catalogId])).catch(
          () => {},
        );
      }
      return { entry: found, created: logged.created };
    },
    async update(userId, { id, fields }) {
      if (!UUID.test(id)) notFound();
      const catalogId = await store.asUser(userId, async (tx) => {
        const movie = await updateViewing(tx, id, fields);
        if (movie !== null) await syncMovie(tx, movie);
        return movie;
      });
      if (catalogId === null) notFound();
      return await entry(userId, id);
    },
    async remove(userId, id) {
      if (!UUID.test(id)) notFound();
      const removed = await store.asUser(userId, async (tx) => {
        const [row] = await tx.query<{ catalogId: number }>(
          `delete from public.user_viewings where user_id = (select auth.uid()) and id = $1::uuid
           returning catalog_id as "catalogId"`,
          [id],
        );
        if (row) await syncMovie(tx, Number(row.catalogId));
        return Boolean(row);
      });
      if (!removed) notFound();
    },
    unrated: (userId, limit) => readUnrated(store, userId, limit),
    stats: (userId, year) => readYearStats(store, userId, year),
    review: (userId, year) => readYearReview(store, userId, year),
  };
}
