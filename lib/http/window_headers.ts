/**
 * The shared external window's X-RateLimit-* headers on every answer of the catalog routes
 * (search, popular, detail), problems included. A 2xx carries the headers of its own place in
 * the window; a problem thrown without them gets the window's current ones here. A wrapper
 * rather than a route middleware: one layer fewer on the cached-detail path (the benchmark).
 */
import type { Ctx } from "./app_env.ts";
import { describeError } from "../core/log.ts";
import { internalError, Problem } from "../core/problem.ts";

/** Runs a catalog handler; a problem it throws leaves with the window's headers. */
export async function withWindowHeaders(
  c: Ctx,
  run: () => Promise<Response>,
): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    const problem = error instanceof Problem ? error : internalError(error);
    if (!("X-RateLimit-Limit" in problem.headers)) {
      try {
        Object.assign(problem.headers, await c.get("services").catalog.rateLimitHeaders());
      } catch (kvError) {
        // The problem itself is sound; a KV hiccup here only costs the headers.
        c.get("deps").log({
          level: "warn",
          msg: "catalog rate-limit headers unavailable",
          error: describeError(kvError),
        });
      }
    }
    throw problem;
  }
}
