/**
 * The leave-out split (docs/recommend.md, "Measuring recommendations"): each user's 5 most recent
 * films rated 7 or more are held out, and the recommenders see every history without them.
 */
import type { EvalData, EvalUser, Watch } from "./types.ts";

/** Films held out per user. */
export const HELD_OUT = 5;
/** Fewest rated films a user needs to be evaluated. */
export const MIN_RATED = 20;
/** The lowest rating that counts as liked. */
export const LIKED = 7;

/** One evaluated user: who, and what they are hoped to be shown. */
export interface EvalCase {
  userId: string;
  heldOut: number[];
}

/** The split: the world the recommenders see, the users measured, and how many were skipped. */
interface Split {
  train: EvalData;
  cases: EvalCase[];
  /** Users with fewer than MIN_RATED rated films, or none rated LIKED or more. */
  skipped: number;
}

/** Most recent first: the day watched (unknown last), then when it was written, then the id. */
function recentFirst(a: Watch, b: Watch): number {
  if (a.watchedOn !== b.watchedOn) {
    if (a.watchedOn === null) return 1;
    if (b.watchedOn === null) return -1;
    return a.watchedOn < b.watchedOn ? 1 : -1;
  }
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return b.catalogId - a.catalogId;
}

/** The films `user` would have held out, or null when the user is not evaluated. */
export function heldOutOf(user: EvalUser): number[] | null {
  const rated = user.watched.filter((w) => w.rating !== null);
  if (rated.length < MIN_RATED) return null;
  const liked = rated.filter((w) => w.rating! >= LIKED).sort(recentFirst);
  return liked.length ? liked.slice(0, HELD_OUT).map((w) => w.catalogId) : null;
}

/** Splits `data`: held-out films leave their user's history; other users keep theirs whole. */
export function splitWorld(data: EvalData): Split {
  const cases: EvalCase[] = [];
  let skipped = 0;
  const users = data.users.map((user) => {
    const heldOut = heldOutOf(user);
    if (!heldOut) {
      skipped++;
      return user;
    }
    cases.push({ userId: user.id, heldOut });
    const hidden = new Set(heldOut);
    return { ...user, watched: user.watched.filter((w) => !hidden.has(w.catalogId)) };
  });
  return { train: { movies: data.movies, users }, cases, skipped };
}
