/**
 * Trakt's writes as one service (docs/trakt.md, "Writes and scrobbles"): each call resolves the
 * films a body names (resolve_ids.ts), runs the write as the user in one transaction, and
 * answers Trakt's JSON (`added`/`deleted`, `existing`, `not_found`, the scrobble's `action`).
 */
import type { MovieSource } from "@/lib/catalog/types.ts";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { addHistory, removeHistory } from "./history_writes.ts";
import { addRatings, addToWatchlist, removeFromWatchlist, removeRatings } from "./list_writes.ts";
import { isSelf, movieObjects, releaseDays } from "./write_lookups.ts";
import { type ResolveDeps, resolveTraktMovies } from "./resolve_ids.ts";
import { deletePlayback, readPlayback, readWatching, type Watching } from "./playback.ts";
import { cancelCheckin, checkin, scrobble, type ScrobbleCall, settleCheckin } from "./scrobble.ts";
import {
  badValue,
  type MovieItem,
  notFound,
  progressOf,
  ratedAtOf,
  type ScrobbleItems,
  type SyncItems,
  watchDate,
} from "./write_body.ts";
import { Problem } from "@/lib/core/problem.ts";

type Answer = Record<string, unknown>;

const SHARING = { twitter: false, mastodon: false, tumblr: false };

/** What the /trakt write routes call; each answers Trakt's body. */
export interface TraktWritesService {
  addHistory(userId: string, body: SyncItems): Promise<Answer>;
  removeHistory(userId: string, body: SyncItems): Promise<Answer>;
  addRatings(userId: string, body: SyncItems): Promise<Answer>;
  removeRatings(userId: string, body: SyncItems): Promise<Answer>;
  addWatchlist(userId: string, body: SyncItems): Promise<Answer>;
  removeWatchlist(userId: string, body: SyncItems): Promise<Answer>;
  /** A scrobble call; 404 when the movie is not found, 409 on a stop scrobbled already. */
  scrobble(
    userId: string,
    call: { body: ScrobbleItems; call: ScrobbleCall["call"] },
  ): Promise<Answer>;
  /** A check-in; 409 with `expires_at` while one runs. */
  checkin(userId: string, body: ScrobbleItems): Promise<Answer>;
  cancelCheckin(userId: string): Promise<void>;
  /**
   * Logs the user's check-in once its runtime has passed (one key lookup when none is due), so
   * the viewing is there on their next /trakt call of any kind.
   */
  settle(userId: string): Promise<void>;
  /** The playback points, latest first. */
  playback(userId: string): Promise<Answer[]>;
  /** Removes a playback point; 404 when the user has none by that id. */
  removePlayback(userId: string, id: number): Promise<void>;
  /**
   * The film watched now, or null; `who` is `me`, the user's handle or id (another user's: 404,
   * as their profile's watching is shown on the website only).
   */
  watching(userId: string, who?: string): Promise<Watching | null>;
}

/** Builds the service; `catalog` resolves unknown TMDB ids and titles through the window. */
export function createTraktWritesService(
  deps: AppDeps,
  options: { catalog: MovieSource },
): TraktWritesService {
  const { store, clock } = deps;
  const resolving: ResolveDeps = { store, clock, catalog: options.catalog };
  const nowIso = () => new Date(clock.now()).toISOString();

  /** The body's movies resolved: the found ones with their item, and the rest as sent. */
  async function split(body: SyncItems) {
    const items = body.movies as MovieItem[];
    const ids = await resolveTraktMovies(resolving, items);
    const found: { item: MovieItem; catalogId: number }[] = [];
    const missing: unknown[] = [];
    items.forEach((item, i) => {
      const id = ids[i];
      if (id === null) missing.push(item);
      else found.push({ item, catalogId: id });
    });
    return { found, missing };
  }

  function ratingOf(value: unknown): number {
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 10) {
      throw badValue("invalid_rating", "rating must be a whole number from 1 to 10.");
    }
    return value;
  }

  async function watchlist(userId: string, body: SyncItems, add: boolean) {
    const { found, missing } = await split(body);
    const ids = found.map((f) => f.catalogId);
    const at = nowIso();
    const done = await store.asUser(
      userId,
      (tx) =>
        add
          ? addToWatchlist(tx, ids, { userId, at })
          : removeFromWatchlist(tx, ids, { userId, at }),
    );
    const counts = (movies: number) => ({ movies, shows: 0, seasons: 0, episodes: 0 });
    const answer: Answer = {
      [add ? "added" : "deleted"]: counts(done.changed),
      ...(add ? { existing: counts(done.existing) } : {}),
      not_found: notFound(body, missing),
      list: done.list,
    };
    if (add) {
      const watched = new Set(done.watched);
      answer.not_added = {
        movies: found.filter((f) => watched.has(f.catalogId))
          .filter((f, i, all) => all.findIndex((g) => g.catalogId === f.catalogId) === i)
          .map((f) => ({ ids: f.item.ids ?? {}, reason: "watched" })),
      };
    }
    return answer;
  }

  async function scrobbledMovie(body: ScrobbleItems) {
    if (!body.movie) {
      throw new Problem(404, "not_found", "Only movies are scrobbled here; send a movie.");
    }
    const [id] = await resolveTraktMovies(resolving, [body.movie as MovieItem]);
    if (id === null) throw new Problem(404, "not_found", "No movie matches these ids.");
    return id;
  }

  return {
    async addHistory(userId, body) {
      const now = clock.now();
      // Bad values answer 422 before any film is looked up.
      const days = new Map((body.movies as MovieItem[]).map((item) => [
        item,
        watchDate(item.watched_at === "released" ? undefined : item.watched_at, now),
      ]));
      const { found, missing } = await split(body);
      const released = await releaseDays(
        store,
        found.filter((f) => f.item.watched_at === "released").map((f) => f.catalogId),
        now,
      );
      const adds = found.map((f) => ({
        catalogId: f.catalogId,
        watchedOn: (f.item.watched_at === "released" ? released.get(f.catalogId) : undefined) ??
          days.get(f.item)!,
      }));
      const added = await store.asUser(
        userId,
        (tx) => addHistory(tx, adds, { userId, loggedAt: nowIso() }),
      );
      return { added: { movies: added, episodes: 0 }, not_found: notFound(body, missing) };
    },

    async removeHistory(userId, body) {
      const { found, missing } = await split(body);
      const historyIds = (body.ids ?? []).map(Number)
        .filter((n) => Number.isSafeInteger(n) && n > 0);
      const deleted = await store.asUser(
        userId,
        (tx) =>
          removeHistory(tx, { catalogIds: found.map((f) => f.catalogId), historyIds }, {
            userId,
          }),
      );
      return {
        deleted: { movies: deleted, episodes: 0 },
        not_found: { ...notFound(body, missing), ids: [] },
      };
    },

    async addRatings(userId, body) {
      const now = clock.now();
      // Bad values answer 422 before any film is looked up.
      const values = new Map((body.movies as MovieItem[]).map((item) => [item, {
        rating: ratingOf(item.rating),
        ratedAt: ratedAtOf(item.rated_at, now),
      }]));
      const { found, missing } = await split(body);
      const ratings = found.map((f) => ({ catalogId: f.catalogId, ...values.get(f.item)! }));
      const added = await store.asUser(
        userId,
        (tx) => addRatings(tx, ratings, { userId, ratedAt: nowIso() }),
      );
      return {
        added: { movies: added, shows: 0, seasons: 0, episodes: 0 },
        not_found: notFound(body, missing),
      };
    },

    async removeRatings(userId, body) {
      const { found, missing } = await split(body);
      const ids = found.map((f) => f.catalogId);
      const deleted = await store.asUser(userId, (tx) => removeRatings(tx, ids, { userId }));
      return {
        deleted: { movies: deleted, shows: 0, seasons: 0, episodes: 0 },
        not_found: notFound(body, missing),
      };
    },

    addWatchlist: (userId, body) => watchlist(userId, body, true),
    removeWatchlist: (userId, body) => watchlist(userId, body, false),

    async scrobble(userId, { body, call }) {
      const progress = progressOf(body.progress);
      const catalogId = await scrobbledMovie(body);
      const done = await store.asUser(userId, async (tx) => ({
        result: await scrobble(tx, { catalogId, progress, call }, { userId, now: clock.now() }),
        movies: await movieObjects(tx, [catalogId]),
      }));
      return { ...done.result, sharing: SHARING, movie: done.movies.get(catalogId) };
    },

    async checkin(userId, body) {
      const catalogId = await scrobbledMovie(body);
      const done = await store.asUser(userId, async (tx) => ({
        result: await checkin(tx, catalogId, { userId, now: clock.now() }),
        movies: await movieObjects(tx, [catalogId]),
      }));
      return {
        id: done.result.id,
        watched_at: done.result.watchedAt,
        sharing: SHARING,
        movie: done.movies.get(catalogId),
      };
    },

    async cancelCheckin(userId) {
      await store.asUser(userId, (tx) => cancelCheckin(tx, { userId, now: clock.now() }));
    },

    async settle(userId) {
      const now = clock.now();
      const due = await store.query(
        `select 1 from public.trakt_watching
          where user_id = $1::uuid and action = 'checkin' and expires_at <= $2::timestamptz`,
        [userId, new Date(now).toISOString()],
      );
      if (due.length > 0) {
        await store.asUser(userId, (tx) => settleCheckin(tx, { userId, now: clock.now() }));
      }
    },

    playback: (userId) =>
      store.asUser(userId, async (tx) => {
        await settleCheckin(tx, { userId, now: clock.now() });
        return await readPlayback(tx);
      }),

    async removePlayback(userId, id) {
      const gone = await store.asUser(userId, (tx) => deletePlayback(tx, id));
      if (!gone) throw new Problem(404, "not_found", "No playback point has this id.");
    },

    watching: (userId, who = "me") =>
      store.asUser(userId, async (tx) => {
        if (!await isSelf(tx, { userId, who })) {
          throw new Problem(404, "not_found", "No user by this id is yours to read.");
        }
        const now = clock.now();
        await settleCheckin(tx, { userId, now });
        return await readWatching(tx, now);
      }),
  };
}
