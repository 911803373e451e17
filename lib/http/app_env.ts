/** The app's Hono environment and the route-file types; not the process environment. */
import type { Context, MiddlewareHandler } from "hono";
import type { ComponentChildren, ComponentType } from "preact";
import type { AppDeps } from "../platform/deps.ts";
import type { Services } from "../app/services.ts";
import type { AuthUser, PendingSession } from "../identity/auth/mod.ts";
import type { TraktUser } from "../connections/trakt/auth.ts";

/** Hono's environment of this app: what every handler finds on `c.var`. */
export interface AppEnv {
  Variables: {
    requestId: string;
    deps: AppDeps;
    services: Services;
    /** The signed-in user, set by `requireUser` (API) or read from the session cookie (pages). */
    user?: AuthUser;
    /**
     * The page's session cookie holds an aal1 session of a user with a verified factor: no
     * `user` is set, and a page that needs one sends the visitor to the code step instead.
     */
    codeOwed?: boolean;
    /** The user's session, when `requireUser` left its check to the route's read. */
    session?: PendingSession;
    /** The caller of a /trakt route that sent a token (lib/http/middleware/trakt_user.ts). */
    traktUser?: TraktUser;
    /** The signed-in user's unread notifications, for a page's header (lib/http/middleware/unread_count.ts). */
    unread?: number;
    /** Renders this route's page component with `data` inside the `_app` shell. */
    render: (data?: unknown, init?: { status?: number }) => Promise<Response>;
  };
}

/** The Hono context of this app. */
export type Ctx = Context<AppEnv>;

/**
 * The context of a handler behind `requireUser` (lib/http/middleware/require_user.ts `signedIn`):
 * a `Ctx` whose `c.var.user` is there, by type.
 */
export type SignedInCtx = Ctx & { readonly var: { readonly user: AuthUser } };

/** The HTTP methods a route file may export handlers for, in the order `Allow` lists them. */
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** An HTTP method a route can handle. */
type Method = (typeof METHODS)[number];

/** One function per HTTP method, as Fresh's `export const handler`. */
export type Handlers = Partial<Record<Method, (c: Ctx) => Response | Promise<Response>>>;

/** The handlers of a route behind `requireUser`, given to `signedIn`: `c.var.user` is set. */
export type SignedInHandlers = Partial<
  Record<Method, (c: SignedInCtx) => Response | Promise<Response>>
>;

/** A middleware of this app. */
export type Middleware = MiddlewareHandler<AppEnv>;

/** The props a page component receives. */
export interface PageProps<T = unknown> {
  data: T;
  url: URL;
  params: Record<string, string>;
  user?: AuthUser;
}

/** What a file under routes/ exports. */
export interface RouteModule {
  handler?: Handlers;
  /** Middleware run before this route's handlers (e.g. `requireUser()`), after the folder's. */
  middleware?: Middleware[];
  // deno-lint-ignore no-explicit-any
  default?: ComponentType<PageProps<any>>;
}

/** What a `_middleware.ts` exports: the middleware of its folder's subtree. */
interface MiddlewareModule {
  middleware: Middleware[];
  /**
   * The paths (route patterns, or a request's path) on which the middleware does nothing: the
   * app leaves it out of those routes' chains instead of running it to no effect.
   */
  skip?: (path: string) => boolean;
}

/** The props of the `_app.tsx` shell. */
export interface AppShellProps {
  children: ComponentChildren;
  url: URL;
  user?: AuthUser;
  title?: string;
}

/** The route table generated into routes.gen.ts by `deno task manifest`. */
export interface Manifest {
  // deno-lint-ignore no-explicit-any
  app?: { default: ComponentType<any> };
  notFound?: RouteModule;
  error?: RouteModule;
  middlewares: { prefix: string; module: MiddlewareModule }[];
  routes: { pattern: string; file: string; module: RouteModule }[];
}
