/**
 * The details fetch that follows a user's write of a movie the store lacks (My List, watched, a
 * diary viewing, an own list; docs/catalog.md, "Prefetch after a write"). It is background work
 * in the shared window (at most its background share, so people's searches and details always
 * find room), and bounded per user: one user has at most `PREFETCH_PER_USER` ids waiting or being
 * fetched; ids written past that are left to the details job, which fills in every film on a
 * user's lists that lacks details, and a run of it is asked for (asks coalesce). Before (issue 43), each write fetched at once at the full 40
 * calls a second, and another user's searches got 429 for most of a minute.
 */
import { describeError, type Logger } from "../core/log.ts";
import type { MovieSource } from "./types.ts";

/** Ids one user may have waiting for their details, or being fetched, at once. */
export const PREFETCH_PER_USER = 20;

/**
 * Asks for the details of `ids` after a write of `userId`'s; resolves once this user has nothing
 * left waiting (it never rejects: a failed fetch is logged, and the details job tries again).
 */
type UserPrefetch = (userId: string, ids: number[]) => Promise<void>;

interface UserQueue {
  /** Ids queued or being fetched. */
  pending: Set<number>;
  queue: number[];
  done: Promise<void>;
}

/** The per-user prefetch over `catalog`'s (which takes 4 at a time through the window). */
export function userPrefetch(
  catalog: Pick<MovieSource, "prefetch">,
  options: {
    log: Logger;
    perUser?: number;
    /** Asks the details job for a run (`DetailsService.ask`): the ids past the bound are its. */
    askDetails?: () => void;
  },
): UserPrefetch {
  const perUser = options.perUser ?? PREFETCH_PER_USER;
  const users = new Map<string, UserQueue>();

  // One loop per user with ids waiting: what was queued meanwhile goes in the next round.
  async function drain(userId: string, user: UserQueue) {
    while (user.queue.length > 0) {
      const batch = user.queue.splice(0);
      try {
        await catalog.prefetch(batch, { background: true });
      } catch (error) {
        options.log({
          level: "warn",
          msg: "prefetch failed",
          userId,
          ids: batch.length,
          error: describeError(error),
        });
      } finally {
        for (const id of batch) user.pending.delete(id);
      }
    }
    // Nothing awaited since the last check: no id can have been queued in between.
    users.delete(userId);
  }

  return (userId, ids) => {
    let user = users.get(userId);
    const fresh = !user;
    user ??= { pending: new Set(), queue: [], done: Promise.resolve() };
    let deferred = 0;
    for (const id of ids) {
      if (user.pending.has(id)) continue;
      if (user.pending.size >= perUser) {
        deferred++;
        continue;
      }
      user.pending.add(id);
      user.queue.push(id);
    }
    if (deferred > 0) {
      options.log({ level: "info", msg: "prefetch left to the details job", userId, deferred });
      // Soon rather than at the next cron tick (up to 10 minutes): asks within ASK_DELAY_MS are one run.
      options.askDetails?.();
    }
    if (fresh && user.queue.length > 0) {
      users.set(userId, user);
      user.done = drain(userId, user);
    }
    return user.done;
  };
}
