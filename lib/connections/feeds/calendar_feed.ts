/**
 * The release calendar as an iCal feed (docs/calendar.md, "The iCal feed"): the same secret as
 * the My List feed, guarded the same way (an address naming too many unknown secrets is refused
 * before the lookup, one secret answers at most 60 reads a minute), an ETag so a calendar
 * app's poll of an unchanged calendar costs no body, the text gzipped for clients that take it,
 * and the written text kept per secret under its ETag, so a poll without the tag of an unchanged
 * calendar is not written again.
 */
import { takeAttempt, type WindowLimit } from "@/lib/identity/auth/rate_limit.ts";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { Problem } from "@/lib/core/problem.ts";
import {
  type CalendarQuery,
  type CalendarService,
  parseCalendarQuery,
} from "@/lib/library/calendar/mod.ts";
import type { GuessLimit } from "../webhooks/guess_limit.ts";
import { secretDigest } from "../webhooks/secret.ts";
import { type CalendarCache, createCalendarCache, gunzipText, gzipText } from "./calendar_cache.ts";
import { calendarIcs, ICS_FORMAT } from "./calendar_ics.ts";

/** Reads per feed secret per minute (calendar apps poll every few minutes to hours). */
const CALENDAR_FEED_LIMIT: WindowLimit = { name: "calendar_feed", limit: 60, windowMs: 60_000 };

const LIST_NAMES: Record<CalendarQuery["list"], string> = {
  mylist: "My List",
  watched: "watched films",
  all: "all my films",
};

/** One read of the feed: the body (gzipped when the client takes gzip) unless its ETag holds. */
type CalendarFeedAnswer =
  | { status: 200; etag: string; body: string; gzip: false }
  | { status: 200; etag: string; body: Uint8Array<ArrayBuffer>; gzip: true }
  | { status: 304; etag: string };

/** What the feed's route calls. */
export interface CalendarFeedService {
  /** The feed of the secret's owner; 404 `not_found`, 429 `rate_limited`, 400 `invalid_query`. */
  read(
    secret: string,
    request: {
      address: string;
      params: URLSearchParams;
      ifNoneMatch: string | null;
      /** Whether the client accepts a gzipped body (Accept-Encoding). */
      gzip: boolean;
    },
  ): Promise<CalendarFeedAnswer>;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether an If-None-Match header names `etag` (or is `*`), weak comparison as RFC 9110. */
function matches(header: string | null, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((t) => t.trim() === "*" || bare(t) === bare(etag));
}

/** 304 when the client holds the feed's tag, else its text, gzipped if the client takes it. */
async function answer(
  feed: { etag: string; gzip: Uint8Array<ArrayBuffer>; text?: string },
  request: { ifNoneMatch: string | null; gzip: boolean },
): Promise<CalendarFeedAnswer> {
  const { etag } = feed;
  if (matches(request.ifNoneMatch, etag)) return { status: 304, etag };
  return request.gzip
    ? { status: 200, etag, body: feed.gzip, gzip: true }
    : { status: 200, etag, body: feed.text ?? await gunzipText(feed.gzip), gzip: false };
}

/**
 * Builds the service on the calendar's own service and the guess limit it shares with the My
 * List feed (tests may pass a small cache).
 */
export function createCalendarFeedService(
  deps: AppDeps,
  services: { calendar: CalendarService; guesses: GuessLimit; cache?: CalendarCache },
): CalendarFeedService {
  const { store, clock, kv, config } = deps;
  const { guesses } = services;
  const cache = services.cache ?? createCalendarCache();
  return {
    async read(secret, request) {
      guesses.refuse(request.address, clock.now(), "feed");
      const digest = await secretDigest(secret);
      const [owner] = await store.query<{ userId: string }>(
        `select user_id::text as "userId" from public.user_connections where feed_secret_hash = $1`,
        [digest],
      );
      if (!owner) {
        guesses.miss(request.address, clock.now());
        throw new Problem(404, "not_found", "No feed has this address.");
      }
      const attempt = await takeAttempt(kv, [{ limit: CALENDAR_FEED_LIMIT, subject: digest }], {
        clock,
      });
      if (!attempt.allowed) {
        throw new Problem(
          429,
          "rate_limited",
          `At most ${CALENDAR_FEED_LIMIT.limit} reads a minute of one feed; try again later.`,
          { headers: { "Retry-After": String(attempt.retryAfterS) } },
        );
      }
      const query = parseCalendarQuery(request.params, { now: clock.now(), ignoreUnknown: true });
      const key = `${digest} ${query.list} ${query.types.join(",")} ${query.from} ${query.to}`;
      // The fingerprint first: a change after it is read gives another one on the next poll.
      const version = await services.calendar.version(owner.userId, query);
      const kept = cache.get(key, clock.now());
      if (kept?.version === version) return answer(kept, request);
      const { region, events } = await services.calendar.read(owner.userId, query);
      const name = `Releases: ${LIST_NAMES[query.list]}`;
      // The events decide the ETag, not DTSTAMP (when the text was written), so an unchanged
      // calendar keeps its tag from poll to poll and a changed list changes it at once.
      const etag = `W/"${
        (await sha256Hex(JSON.stringify([ICS_FORMAT, name, region, events]))).slice(0, 32)
      }"`;
      // The same events after a write that changed nothing the calendar shows: the text kept is
      // still the feed. Otherwise it is written now, even for a 304, so the next poll finds it.
      let text: string | undefined;
      let gzip = kept?.etag === etag ? kept.gzip : undefined;
      if (!gzip) {
        text = calendarIcs(events, { siteUrl: config.siteUrl, region, name, now: clock.now() });
        gzip = await gzipText(text);
      }
      cache.set(key, { version, etag, gzip }, clock.now());
      return answer({ etag, gzip, text }, request);
    },
  };
}
