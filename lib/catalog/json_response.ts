/**
 * The JSON response of a catalog answer, built in one step. A cached detail is the same
 * object on every hit (the LRU hands it out), so its serialisation is kept beside it; and one
 * headers init costs far less than Hono's header-by-header merge (scripts/bench/catalog.ts).
 */
import type { RateLimitHeaders } from "./types.ts";

const bodies = new WeakMap<object, string>();

/** A 200 `application/json` response of `value` carrying the window's `headers`. */
export function catalogJson(value: object, headers: RateLimitHeaders): Response {
  let body = bodies.get(value);
  if (body === undefined) {
    body = JSON.stringify(value);
    bodies.set(value, body);
  }
  return new Response(body, {
    status: 200,
    headers: { "content-type": "application/json", ...headers },
  });
}
