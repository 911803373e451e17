/**
 * The My List feed's service (docs/trakt.md, "Other apps"): its rotation for the owner, and the
 * feed read by secret, guarded as the webhooks are: an address that named too many unknown
 * secrets is refused before the lookup (429), an unknown secret is 404 and counted against the
 * address in memory, and one secret answers at most 60 reads a minute.
 */
import { takeAttempt, type WindowLimit } from "@/lib/identity/auth/rate_limit.ts";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { GuessLimit } from "../webhooks/guess_limit.ts";
import { type FeedItem, feedUrl, readFeed, rotateFeedSecret } from "./feed.ts";

/** Reads per feed secret per minute (Radarr reads a list at most every 12 hours). */
const FEED_LIMIT: WindowLimit = { name: "feed_secret", limit: 60, windowMs: 60_000 };

/** What the feed's routes call. */
export interface FeedsService {
  /** A new feed secret; the old URL answers 404 at once. */
  rotate(userId: string): Promise<{ feedUrl: string }>;
  /** My List of the secret's owner as the feed lists it; 404 `not_found`, 429 `rate_limited`. */
  read(secret: string, from: { address: string }): Promise<FeedItem[]>;
}

/**
 * Builds the service. `guesses` counts unknown secrets per address, shared with the calendar
 * feed: both read the same secret, so a guesser gets one allowance, not one per feed.
 */
export function createFeedsService(
  deps: AppDeps,
  services: { guesses: GuessLimit },
): FeedsService {
  const { store, clock, kv, config } = deps;
  const { guesses } = services;
  return {
    async rotate(userId) {
      const now = new Date(clock.now()).toISOString();
      const secret = await store.asUser(userId, (tx) => rotateFeedSecret(tx, now));
      return { feedUrl: feedUrl(config.siteUrl, secret) };
    },
    async read(secret, from) {
      guesses.refuse(from.address, clock.now(), "feed");
      const feed = await readFeed(store, secret);
      if (!feed) {
        guesses.miss(from.address, clock.now());
        throw new Problem(404, "not_found", "No feed has this address.");
      }
      const attempt = await takeAttempt(kv, [{ limit: FEED_LIMIT, subject: secret }], { clock });
      if (!attempt.allowed) {
        throw new Problem(
          429,
          "rate_limited",
          `At most ${FEED_LIMIT.limit} reads a minute of one feed; try again later.`,
          { headers: { "Retry-After": String(attempt.retryAfterS) } },
        );
      }
      return feed.items;
    },
  };
}
