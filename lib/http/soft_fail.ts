/**
 * Pages that show a catalog answer (popular, search) render their own frame when the catalog
 * fails, with a message in place of the results, instead of the bare error page; the status
 * stays the problem's and a 5xx is logged as onError would.
 */
import { describeError } from "../log.ts";
import { Problem } from "../problem.ts";
import type { Ctx } from "./env.ts";

/** A failure a page can explain: status, code and the user-facing text. */
export interface PageFailure {
  status: number;
  code: string;
  message: string;
}

const MESSAGES: Record<string, string> = {
  rate_limited: "Lots of people are searching right now. Please try again in a moment.",
  upstream_busy: "The movie database is busy. Please try again in a moment.",
  catalog_not_configured:
    "Movie data isn't available: this server has no movie database credentials (TMDB_API_KEY).",
};

/** `fn`'s value, or the Problem it threw as a PageFailure; anything else is rethrown. */
export async function softFail<T>(
  c: Ctx,
  fn: () => Promise<T>,
): Promise<{ value: T; failure?: undefined } | { value?: undefined; failure: PageFailure }> {
  try {
    return { value: await fn() };
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    if (error.status >= 500) {
      c.var.deps.log({
        level: "error",
        requestId: c.get("requestId"),
        method: c.req.method,
        path: c.req.path,
        status: error.status,
        code: error.code,
        error: describeError(error.cause ?? error),
      });
    }
    const message = MESSAGES[error.code] ??
      (error.status >= 500
        ? "Movies can't be loaded right now. Please try again later."
        : error.message);
    return { failure: { status: error.status, code: error.code, message } };
  }
}
