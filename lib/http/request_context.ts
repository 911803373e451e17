/**
 * The first middleware of every request: gives it an id (echoed as X-Request-Id), hands the
 * handlers their dependencies, and writes one JSON log line when the response is ready (its
 * path without the secrets some paths carry: docs/api.md, "Request log").
 */
import type { AppDeps } from "../platform/deps.ts";
import type { Services } from "../app/services.ts";
import type { Middleware } from "./app_env.ts";

const SAFE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

// Path segments that are credentials, logged as their route's parameter name: a webhook's or
// a feed's secret, a share link's slug (the page and its API), an invite's code. Extra slashes
// or another case do not reach a route, but are redacted all the same.
const SECRET_SEGMENTS: [RegExp, string][] = [
  [/^(\/+hooks\/+)[^/]+/i, "$1:secret"],
  [/^(\/+feeds\/+)[^/]+/i, "$1:secret"],
  [/^(\/+s\/+)[^/]+/i, "$1:slug"],
  [/^(\/+api\/+shared\/+)[^/]+/i, "$1:slug"],
  [/^(\/+api\/+admin\/+invites\/+)[^/]+/i, "$1:code"],
];

/** `path` as a log line may hold it: a secret segment replaced by its parameter's name. */
export function loggedPath(path: string): string {
  for (const [pattern, name] of SECRET_SEGMENTS) {
    if (pattern.test(path)) return path.replace(pattern, name);
  }
  return path;
}

/** Sets `requestId`, `deps` and `services`, adds `X-Request-Id`, logs the request. */
export function requestContext(deps: AppDeps, services: Services): Middleware {
  return async function requestContext(c, next) {
    const started = performance.now();
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && SAFE_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", requestId);
    c.set("deps", deps);
    c.set("services", services);
    await next();
    c.res.headers.set("X-Request-Id", requestId);
    const user = c.get("user");
    deps.log({
      level: "info",
      requestId,
      method: c.req.method,
      path: loggedPath(c.req.path),
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      ...(user ? { userId: user.id } : {}),
    });
  };
}
