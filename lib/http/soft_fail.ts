/**
 * Pages that show a catalog answer (popular, search) render their own frame when the catalog
 * fails, with a message in place of the results, instead of the bare error page; the status
 * stays the problem's and a 5xx is logged as onError would. A server without TMDB credentials
 * is a configuration, not a failure: those pages answer 200 with a note, and it is logged once.
 */
import { describeError } from "../core/log.ts";
import { Problem } from "../core/problem.ts";
import type { Ctx } from "./app_env.ts";
import { loggedPath } from "./request_context.ts";

/** A failure a page can explain: status (200 when the catalog is not configured), code, text. */
export interface PageFailure {
  status: number;
  code: string;
  message: string;
}

const NOT_CONFIGURED = "catalog_not_configured";

// Per app (its config object): the missing credentials are worth one warning, not one per visit.
const warnedConfigs = new WeakSet<object>();

const MESSAGES: Record<string, string> = {
  rate_limited: "Lots of people are searching right now. Please try again in a moment.",
  upstream_busy: "The movie database is busy. Please try again in a moment.",
  catalog_not_configured:
    "Movie data isn't available yet: this server has no movie database credentials " +
    "(TMDB_API_KEY or TMDB_READ_ACCESS_TOKEN).",
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
    if (error.code === NOT_CONFIGURED) {
      // Every visit would otherwise be a 500 and an error line: monitoring would page someone
      // about a setting, and the page itself (search box, lists, sign-in) still works.
      const { config, log } = c.var.deps;
      if (!warnedConfigs.has(config)) {
        warnedConfigs.add(config);
        log({ level: "warn", code: NOT_CONFIGURED, error: error.message });
      }
      return { failure: { status: 200, code: error.code, message: MESSAGES[NOT_CONFIGURED] } };
    }
    if (error.status >= 500) {
      c.var.deps.log({
        level: "error",
        requestId: c.get("requestId"),
        method: c.req.method,
        path: loggedPath(c.req.path),
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
