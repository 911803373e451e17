/**
 * The release calendar as an iCal feed (docs/calendar.md, "The iCal feed"): the same secret as
 * the My List feed, guarded the same way (an address naming too many unknown secrets is refused
 * before the lookup, one secret answers at most 60 reads a minute), and an ETag so a calendar
 * app's poll of an unchanged calendar costs no body.
 */
import { takeAttempt, type WindowLimit } from "@/lib/identity/auth/rate_limit.ts";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { Problem } from "@/lib/core/problem.ts";
import {
  type CalendarQuery,
  type CalendarService,
  parseCalendarQuery,
} from "@/lib/library/calendar/mod.ts";
import { createGuessLimit } from "../webhooks/guess_limit.ts";
import { secretDigest } from "../webhooks/secret.ts";
import { calendarIcs } from "./calendar_ics.ts";

/** Reads per feed secret per minute (calendar apps poll every few minutes to hours). */
const CALENDAR_FEED_LIMIT: WindowLimit = { name: "calendar_feed", limit: 60, windowMs: 60_000 };

const LIST_NAMES: Record<CalendarQuery["list"], string> = {
  mylist: "My List",
  watched: "watched films",
  all: "all my films",
};

/** One read of the feed: the body unless the client's ETag still holds. */
type CalendarFeedAnswer =
  | { status: 200; etag: string; body: string }
  | { status: 304; etag: string };

/** What the feed's route calls. */
export interface CalendarFeedService {
  /** The feed of the secret's owner; 404 `not_found`, 429 `rate_limited`, 400 `invalid_query`. */
  read(
    secret: string,
    request: { address: string; params: URLSearchParams; ifNoneMatch: string | null },
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

/** Builds the service on the calendar's own service. */
export function createCalendarFeedService(
  deps: AppDeps,
  services: { calendar: CalendarService },
): CalendarFeedService {
  const { store, clock, kv, config } = deps;
  const guesses = createGuessLimit();
  return {
    async read(secret, request) {
      const wait = guesses.refusedFor(request.address, clock.now());
      if (wait !== null) {
        throw new Problem(
          429,
          "rate_limited",
          "Too many requests to unknown feed addresses from this address; try again later.",
          { headers: { "Retry-After": String(wait) } },
        );
      }
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
      const { region, events } = await services.calendar.read(owner.userId, query);
      const name = `Releases: ${LIST_NAMES[query.list]}`;
      // The events decide the ETag, not DTSTAMP (the time of this read), so an unchanged
      // calendar keeps its tag from poll to poll and a changed list changes it at once.
      const etag = `W/"${(await sha256Hex(JSON.stringify([name, region, events]))).slice(0, 32)}"`;
      if (matches(request.ifNoneMatch, etag)) return { status: 304, etag };
      const body = calendarIcs(events, { siteUrl: config.siteUrl, region, name, now: clock.now() });
      return { status: 200, etag, body };
    },
  };
}
