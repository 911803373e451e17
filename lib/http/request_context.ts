/**
 * The first middleware of every request: gives it an id (echoed as X-Request-Id), hands the
 * handlers their dependencies, and writes one JSON log line when the response is ready.
 */
import type { AppDeps } from "../platform/deps.ts";
import type { Services } from "../app/services.ts";
import type { Middleware } from "./app_env.ts";

const SAFE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

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
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      ...(user ? { userId: user.id } : {}),
    });
  };
}
