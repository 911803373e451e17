/**
 * What the recommendations page says, in plain words: each failure with whether it used one
 * of the day's requests (docs/api.md: a generation spends a unit when it starts and
 * gets it back when it ends in 500 or 503; 400, 409 and 429 never start one) and what to do,
 * and when the day's requests come back, in the reader's own time (only the browser says these).
 */
import { ApiError } from "./api.ts";
import { formatInstant, readerTimeZone } from "./local_time.ts";

/** The daily quota as the page knows it. */
export interface QuotaView {
  limit: number;
  remaining: number;
  resetAt: string;
}

const NOT_SPENT = "This didn't use any of today's requests.";
const GIVEN_BACK = "The request it used was given back, so this cost you nothing.";
const SPENT = "This used one of today's requests.";

/** When the day's requests come back, in the reader's own time ("after 01:00, your time"). */
function resetText(quota: Pick<QuotaView, "resetAt"> | null): string {
  const at = quota ? formatInstant(quota.resetAt, "time", readerTimeZone()) : "";
  return at ? `${at}, your time` : "midnight UTC";
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
