/**
 * The JSON response of a catalog answer. A cached detail is the same object on every hit (the
 * LRU hands it out), so its serialisation is kept beside it.
 */
import type { RateLimitHeaders } from "../catalog/types.ts";

const bodies = new WeakMap<object, string>();

/** A 200 `application/json` response of `value` carrying the window's `headers`. */
export function catalogJson(value: object, headers: RateLimitHeaders): Response {
  let body = bodies.get(value);
  if (body === undefined) {
    body = JSON.stringify(value);
    bodies.set(value, body);
  }
  const response = new Response(body, {
    status: 200,
    headers: { "content-type": "application/json" },
  });
  // Measured on Deno 2.9: an init with more than one header costs about 1.3 µs a header,
  // while setting them on the built response costs about 0.2 µs each.
  for (const name in headers) response.headers.set(name, headers[name]);
  return response;
}
