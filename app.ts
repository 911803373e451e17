/**
 * Builds the Hono app from the route table (routes.gen.ts) and its dependencies, so the
 * server (main.ts) and the tests build the very same app. This is what Fresh's
 * fresh.config.ts would be.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { GoTrueError } from "./lib/identity/auth/gotrue_error.ts";
import type { AppDeps } from "./lib/platform/deps.ts";
import {
  type AppEnv,
  type Ctx,
  type Manifest,
  METHODS,
  type Middleware,
  type RouteModule,
} from "./lib/http/app_env.ts";
import { gotrueErrorResponse } from "./lib/http/gotrue_response.ts";
import { isTraktPath, traktErrorResponse } from "./lib/http/trakt_error.ts";
import { renderPage } from "./lib/http/render.tsx";
import { bodyDeadline } from "./lib/http/middleware/body_deadline.ts";
import { loggedPath, requestContext } from "./lib/http/request_context.ts";
import { StaticTableRouter } from "./lib/http/router.ts";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { describeError } from "./lib/core/log.ts";
import { internalError, Problem, problemResponse } from "./lib/core/problem.ts";
import { createServices, type Services } from "./lib/app/services.ts";
import { manifest as generated } from "./routes.gen.ts";

const BODY_METHODS = ["POST", "PUT", "PATCH", "DELETE"] as const;

/** The methods a route answers, in `Allow` order. */
export function allowedMethods(module: RouteModule): string[] {
  const methods = METHODS.filter((m) => module.handler?.[m]);
  if (!module.handler?.GET && module.default) methods.unshift("GET");
  return methods;
}

function methodNotAllowed(methods: string[]): Problem {
  return new Problem(405, "method_not_allowed", `This resource answers ${methods.join(", ")}.`, {
    headers: { Allow: methods.join(", ") },
  });
}

/**
 * The methods of the route a path names (undefined: no route), static paths from a table and
 * dynamic ones from one RegExpRouter: one lookup per request rather than a test per route.
 */
function routeMethods(routes: Manifest["routes"]): (path: string) => string[] | undefined {
  const statics = new Map<string, string[]>();
  const dynamic = new RegExpRouter<string[]>();
  for (const { pattern, module } of routes) {
    // Static first, as the router: a static path wins over a pattern that would match it.
    if (pattern.includes(":")) dynamic.add("ALL", pattern, allowedMethods(module));
    else if (!statics.has(pattern)) statics.set(pattern, allowedMethods(module));
  }
  return (path) => statics.get(path) ?? dynamic.match("ALL", path)[0][0]?.[0];
}

/**
 * Refuses an unknown /api path (404) and a method a route does not take (405, with Allow;
 * docs/api.md) before any folder middleware runs, rather than the folder's 401 for a missing
 * token or the admin folder's 429.
 */
function methodGate(routes: Manifest["routes"]): Middleware {
  const methodsOf = routeMethods(routes);
  return function methodGate(c, next) {
    const path = c.req.path;
    const methods = methodsOf(path);
    // An unknown /api path is a 404 whatever the folder would ask first (a token, the admin's).
    if (!methods && (path === "/api" || path.startsWith("/api/"))) {
      throw new Problem(404, "not_found", `No resource at ${path}.`);
    }
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    // A browser's CORS preflight on /trakt is answered by that folder's middleware.
    if (method === "OPTIONS" && isTraktPath(path)) return next();
    if (methods && !methods.includes(method)) throw methodNotAllowed(methods);
    return next();
  };
}

/** Runs `chain` to its end (each calls the next); for middleware outside Hono's own chain. */
async function runChain(c: Ctx, chain: Middleware[]): Promise<void> {
  const step = async (i: number): Promise<void> => {
    if (i < chain.length) await chain[i](c, () => step(i + 1));
  };
  await step(0);
}

// The media servers' webhooks (/hooks) and the feeds other apps read (/feeds) are machine
// clients too: their errors are problem+json.
function isApiPath(path: string): boolean {
  return path === "/api" || path.startsWith("/api/") || path.startsWith("/auth/") ||
    path.startsWith("/hooks/") || path.startsWith("/feeds/");
}

/**
 * Builds the app. `manifest` defaults to the generated route table; `services` to services
 * built from `deps` (main.ts passes the ones its cron job shares, so a process has one set).
 */
export function createApp(
  deps: AppDeps,
  options: { manifest?: Manifest; services?: Services } = {},
): Hono<AppEnv> {
  const manifest = options.manifest ?? generated;
  const services = options.services ?? createServices(deps);
  const app = new Hono<AppEnv>({ router: new StaticTableRouter() });
  const Shell = manifest.app?.default;

  app.use(requestContext(deps, services));
  // Only the methods that carry a body pay for its deadline (a GET's body is never read).
  app.on([...BODY_METHODS], "*", bodyDeadline(deps.config.bodyTimeoutMs));
  // The gate goes in front of each folder's middleware only: a path no folder covers meets the
  // route's own 405 or the 404 of `notFound` first anyway, and its requests skip a route lookup.
  const gate = methodGate(manifest.routes);
  // Folder middleware that does nothing on some paths (`skip`) joins only the other routes'
  // chains; an unmatched path gets it in `notFound`, before its page renders.
  const unmatched: Middleware[] = [];
  for (const { prefix, module } of manifest.middlewares) {
    const path = prefix === "/" ? "*" : `${prefix}/*`;
    const skip = module.skip;
    if (!skip) {
      app.use(path, gate, ...module.middleware);
      continue;
    }
    const applies = (p: string) =>
      (prefix === "/" || p === prefix || p.startsWith(`${prefix}/`)) && !skip(p);
    for (const { pattern } of manifest.routes) {
      if (applies(pattern)) app.use(pattern, gate, ...module.middleware);
    }
    unmatched.push(
      ...module.middleware.map((m): Middleware => (c, next) =>
        applies(c.req.path) ? m(c, next) : next()
      ),
    );
  }

  for (const { pattern, module } of manifest.routes) {
    const methods = allowedMethods(module);
    const Page = module.default;
    const setRender = async (c: Ctx, next: () => Promise<void>) => {
      c.set("render", (data, init) => {
        if (!Page) throw new Error(`${pattern} has no page component to render`);
        return Promise.resolve(renderPage(c, { Shell, Page }, data, init));
      });
      await next();
    };
    for (const method of methods) {
      const handle = module.handler?.[method as keyof typeof module.handler] ??
        ((c: Ctx) => c.var.render(undefined));
      // An API route has no page, so it skips the render layer (one less step per request).
      const chain: Middleware[] = [...(Page ? [setRender] : []), ...(module.middleware ?? [])];
      app.on(method, pattern, ...(chain as []), (c: Ctx) => handle(c));
    }
    app.all(pattern, () => {
      throw methodNotAllowed(methods);
    });
  }

  const renderError = (c: Ctx, module: RouteModule | undefined, problem: Problem) => {
    // Trakt clients read Trakt's own error body (docs/trakt.md).
    if (isTraktPath(c.req.path)) return traktErrorResponse(problem);
    if (!isApiPath(c.req.path) && module?.default) {
      const response = renderPage(c, { Shell, Page: module.default }, problem.toJSON(), {
        status: problem.status,
      });
      for (const [k, v] of Object.entries(problem.headers)) response.headers.set(k, v);
      return response;
    }
    return problemResponse(problem);
  };

  app.notFound(async (c) => {
    await runChain(c, unmatched);
    return renderError(
      c,
      manifest.notFound,
      new Problem(404, "not_found", `No resource at ${c.req.path}.`),
    );
  });

  app.onError((error, c) => {
    // The /auth/v1 routes answer GoTrue's error shape, so supabase-js reads them as Supabase's.
    if (error instanceof GoTrueError) return gotrueErrorResponse(c.req.raw, error);
    let problem: Problem;
    if (error instanceof Problem) problem = error;
    else if (error instanceof HTTPException && error.status < 500) {
      problem = new Problem(error.status, "bad_request", error.message || "Bad request.");
    } else {
      problem = internalError(error);
    }
    if (problem.status >= 500) {
      const cause = problem.cause ?? (problem === error ? undefined : error);
      deps.log({
        level: "error",
        requestId: c.get("requestId"),
        method: c.req.method,
        path: loggedPath(c.req.path),
        status: problem.status,
        code: problem.code,
        error: cause === undefined ? problem.message : describeError(cause),
      });
    }
    try {
      return renderError(c, manifest.error, problem);
    } catch {
      return problemResponse(problem);
    }
  });

  return app;
}
