/**
 * Builds the Hono app from the route table (routes.gen.ts) and its dependencies, so the
 * server (main.ts) and the tests build the very same app. This is what Fresh's
 * fresh.config.ts would be.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { GoTrueError } from "./lib/auth/gotrue_error.ts";
import type { AppDeps } from "./lib/deps.ts";
import {
  type AppEnv,
  type Ctx,
  type Manifest,
  METHODS,
  type Middleware,
  type RouteModule,
} from "./lib/http/app_env.ts";
import { gotrueErrorResponse } from "./lib/http/gotrue_response.ts";
import { renderPage } from "./lib/http/render.tsx";
import { bodyDeadline } from "./lib/http/middleware/body_deadline.ts";
import { requestContext } from "./lib/http/request_context.ts";
import { StaticTableRouter } from "./lib/http/router.ts";
import { describeError } from "./lib/log.ts";
import { internalError, Problem, problemResponse } from "./lib/problem.ts";
import { createServices, type Services } from "./lib/services.ts";
import { manifest as generated } from "./routes.gen.ts";

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
 * Refuses an unknown /api path (404) and a method a route does not take (405, with Allow;
 * docs/api.md) before any folder middleware runs, rather than the folder's 401 for a missing
 * token or the admin folder's 429.
 */
function methodGate(routes: Manifest["routes"]): Middleware {
  const table = routes.map(({ pattern, module }) => ({
    re: new RegExp(
      `^${pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[^/]+/g, "[^/]+")}$`,
    ),
    methods: allowedMethods(module),
    dynamic: pattern.includes(":"),
  })).sort((a, b) => Number(a.dynamic) - Number(b.dynamic)); // static first, as the router
  return async function methodGate(c, next) {
    const route = table.find((r) => r.re.test(c.req.path));
    // An unknown /api path is a 404 whatever the folder would ask first (a token, the admin's).
    if (!route && (c.req.path === "/api" || c.req.path.startsWith("/api/"))) {
      throw new Problem(404, "not_found", `No resource at ${c.req.path}.`);
    }
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    if (route && !route.methods.includes(method)) throw methodNotAllowed(route.methods);
    await next();
  };
}

// The media servers' webhooks (/hooks) are machine clients too: their errors are problem+json.
function isApiPath(path: string): boolean {
  return path === "/api" || path.startsWith("/api/") || path.startsWith("/auth/") ||
    path.startsWith("/hooks/");
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
  app.use(bodyDeadline(deps.config.bodyTimeoutMs));
  app.use(methodGate(manifest.routes));
  for (const { prefix, module } of manifest.middlewares) {
    app.use(prefix === "/" ? "*" : `${prefix}/*`, ...module.middleware);
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
    if (!isApiPath(c.req.path) && module?.default) {
      const response = renderPage(c, { Shell, Page: module.default }, problem.toJSON(), {
        status: problem.status,
      });
      for (const [k, v] of Object.entries(problem.headers)) response.headers.set(k, v);
      return response;
    }
    return problemResponse(problem);
  };

  app.notFound((c) =>
    renderError(
      c,
      manifest.notFound,
      new Problem(404, "not_found", `No resource at ${c.req.path}.`),
    )
  );

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
        path: c.req.path,
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
