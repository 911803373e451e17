/**
 * GET /api/recommend/current (docs/recommend.md): the stored set as it is, with reasons,
 * when it was made and until when it is kept. It reads only: no lock, no quota, no generation.
 */
import { Problem } from "../core/problem.ts";
import type { Sql } from "../platform/store/mod.ts";
import { isReusable, readStoredSet, watchedHash } from "./cache.ts";
import { loadWatchedIds } from "./taste.ts";

/** The body of GET /api/recommend/current. */
export interface CurrentSet {
  recommendations: { catalogId: number; reason: string }[];
  createdAt: string;
  expiresAt: string;
  /** Unexpired and made for today's watched history (the default path would serve it). */
  fresh: boolean;
}

/** Reads the user's stored set inside the user's transaction; 404 `no_recommendations` if none. */
export async function readCurrent(
  tx: Sql,
  userId: string,
  options: { now: number },
): Promise<CurrentSet> {
  const stored = await readStoredSet(tx, userId);
  if (!stored) {
    throw new Problem(
      404,
      "no_recommendations",
      "No recommendations are stored yet; ask for some first.",
    );
  }
  const hash = await watchedHash(await loadWatchedIds(tx, userId));
  return {
    recommendations: stored.ids.map((catalogId) => ({
      catalogId,
      reason: stored.reasons[String(catalogId)] ?? "",
    })),
    createdAt: (stored.createdAt ?? stored.expiresAt).toISOString(),
    expiresAt: stored.expiresAt.toISOString(),
    fresh: isReusable(stored, { hash, now: options.now }),
  };
}
