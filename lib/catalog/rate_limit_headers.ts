/**
 * Puts the shared external window's X-RateLimit-* headers on every response of the catalog
 * routes (search, popular, detail), problems included. A handler or problem that already set
 * them (from the place it took in the window) keeps its own.
 */
import type { Middleware } from "../http/env.ts";

/** The middleware that fills in the window's headers after the handler ran. */
export function catalogRateLimitHeaders(): Middleware {
  return async function catalogRateLimitHeaders(c, next) {
    await next();
    if (c.res.headers.has("X-RateLimit-Limit")) return;
    try {
      const headers = await c.var.services.catalog.rateLimitHeaders();
      for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
    } catch (error) {
      // The answer itself is sound; a KV hiccup here only costs the headers.
      c.var.deps.log({
        level: "warn",
        msg: "catalog rate-limit headers unavailable",
        error: String(error).slice(0, 200),
      });
    }
  };
}
