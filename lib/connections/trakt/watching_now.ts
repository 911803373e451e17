/**
 * "Watching now" on the website (docs/trakt.md, "Other apps"): the film a Trakt client scrobbles
 * or checked in to, with its progress, for the home page (the user's own) and a public profile
 * (its owner's, only while the profile is public). Reads only: a check-in whose time is over is
 * no longer watching, and its viewing is logged by the user's next Trakt call, as on Trakt.
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { readWatching, type Watching } from "./playback.ts";

/** What a page shows. */
export interface WatchingNowView {
  catalogId: number;
  title: string | null;
  year: number | null;
  /** 0-100, as of the read. */
  progress: number;
  expiresAt: string;
  action: "scrobble" | "checkin";
}

/** What the pages call. */
export interface WatchingNowService {
  /** The user's own film watched now, or null. */
  mine(userId: string): Promise<WatchingNowView | null>;
  /** What the owner of the public profile `handle` watches now; null for none or no such profile. */
  onProfile(handle: string): Promise<WatchingNowView | null>;
}

function view(w: Watching | null): WatchingNowView | null {
  if (!w) return null;
  return {
    catalogId: w.movie.ids.trakt,
    title: w.movie.title,
    year: w.movie.year,
    progress: w.progress,
    expiresAt: w.expires_at,
    action: w.action,
  };
}

/** Builds the service. */
export function createWatchingNowService(deps: AppDeps): WatchingNowService {
  const { store, clock } = deps;
  const mine = async (userId: string) =>
    view(await store.asUser(userId, (tx) => readWatching(tx, clock.now())));
  return {
    mine,
    async onProfile(handle) {
      const [owner] = await store.query<{ userId: string }>(
        `select user_id::text as "userId" from public.user_profiles where handle = $1 and public`,
        [handle],
      );
      return owner ? await mine(owner.userId) : null;
    },
  };
}
