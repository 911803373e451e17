/**
 * What the recommendations page says, in plain words: each failure with whether it used one
 * of the day's requests (contract section 6: a generation spends a unit when it starts and
 * gets it back when it ends in 500 or 503; 400, 409 and 429 never start one) and what to do,
 * and the set's dates. Dates are written in UTC so the server's render and the browser's agree.
 */
import { ApiError } from "./api.ts";

/** The daily quota as the page knows it. */
export interface QuotaView {
  limit: number;
  remaining: number;
  resetAt: string;
}

const NOT_SPENT = "This didn't use any of today's requests.";
const GIVEN_BACK = "The request it used was given back, so this cost you nothing.";
const SPENT = "This used one of today's requests.";

const DATE = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const TIME = new Intl.DateTimeFormat("en-GB", {
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

/** `iso` as "23 Nov 2026", or "" when it is not a date. */
export function day(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : DATE.format(date);
}

/** `iso` as "23 Nov 2026, 14:05 UTC", or "" when it is not a date. */
export function moment(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : `${DATE.format(date)}, ${TIME.format(date)} UTC`;
}

function resetText(quota: QuotaView | null): string {
  const at = quota ? new Date(quota.resetAt) : null;
  return at && !Number.isNaN(at.getTime()) ? `${TIME.format(at)} UTC` : "midnight UTC";
}

/** A failed generation, by status and code: what happened, what it cost, what to do. */
export function explainStatus(status: number, code: string, quota: QuotaView | null): string {
  if (code === "no_watched_movies") {
    return "Mark a few movies as watched first: recommendations are based on what you've seen. " +
      NOT_SPENT;
  }
  switch (status) {
    case 429:
      return `You've used all ${quota?.limit ?? 20} recommendation requests for today. ` +
        `More are available after ${resetText(quota)}; your current set stays here until then.`;
    case 409:
      return "Your recommendations are already being prepared (perhaps in another tab). " +
        `Wait a minute, then reload this page. ${NOT_SPENT}`;
    case 502:
      return "We couldn't come up with good recommendations this time: the suggestions we got " +
        `didn't match enough movies. ${SPENT} Try again later, or mark a few more movies as ` +
        "watched to give it more to go on.";
    case 503:
      return "The recommendation service is unavailable right now. " +
        `${GIVEN_BACK} Please try again in a few minutes.`;
    case 401:
      return "Your session has expired. Sign in again to get recommendations. " + NOT_SPENT;
    case 0:
      return "The site could not be reached. Check your connection and try again; the count " +
        "of requests left shows whether one was used.";
    default:
      return status >= 500
        ? `Something went wrong on our side. ${GIVEN_BACK} Please try again later.`
        : "Something went wrong. Please reload the page and try again.";
  }
}

/** `explainStatus` for whatever a request threw. */
export function explain(error: unknown, quota: QuotaView | null): string {
  if (!(error instanceof ApiError)) {
    return "Something went wrong. Please reload the page and try again.";
  }
  return explainStatus(error.status, error.code, quota);
}
