/** The middleware of protected API routes: resolves the user before any user data is touched. */
import { unauthorized } from "@/lib/identity/auth/unauthorized.ts";
import { isPersonalToken } from "@/lib/identity/personal_tokens/mod.ts";
import { Problem } from "@/lib/core/problem.ts";
import {
  type Ctx,
  type Handlers,
  METHODS,
  type Middleware,
  type SignedInCtx,
  type SignedInHandlers,
} from "../app_env.ts";
import { bearerToken } from "../bearer.ts";

/** A personal token on a route that manages the account itself. */
function tokenNotAllowed(): Problem {
  return new Problem(
    403,
    "personal_token_not_allowed",
    "A personal access token cannot manage tokens, connections or the account; sign in instead.",
  );
}

/** A `read` token on a route that writes. */
function insufficientScope(): Problem {
  return new Problem(403, "insufficient_scope", "This personal access token may only read (GET).", {
    headers: {
      "WWW-Authenticate": 'Bearer realm="api", error="insufficient_scope", scope="write"',
    },
  });
}

/**
 * Reads the Bearer token, verifies it and sets `c.var.user`; otherwise 401, before any body is
 * read. An aal1 token of a user with a verified second factor is 403 `mfa_required` here too
 * (the verifier checks it with the session, in the same query; docs/identity.md). A personal
 * access token (docs/connections.md) is taken too, and counts as aal2, unless `personalTokens`
 * is false (token, connection and account management); a `read` one answers GET and HEAD only.
 * With `readChecksSession`, a GET leaves the session's check to the route's read
 * (`c.var.session`, folded into its statement); a handler that does not settle it still gets
 * it checked, by a query of its own, before the response leaves.
 */
export function requireUser(
  options: { readChecksSession?: boolean; personalTokens?: boolean } = {},
): Middleware {
  return async function requireUser(c, next) {
    const token = bearerToken(c.req.header("authorization"));
    if (!token) throw unauthorized();
    if (isPersonalToken(token)) {
      if (options.personalTokens === false) throw tokenNotAllowed();
      // A token is made at aal2 (or before any factor) and apps cannot answer a code step.
      const holder = await c.var.services.personalTokens.verify(token);
      if (holder.scope === "read" && c.req.method !== "GET" && c.req.method !== "HEAD") {
        throw insufficientScope();
      }
      c.set("user", holder.user);
      return await next();
    }
    const auth = c.var.services.auth;
    if (!options.readChecksSession || (c.req.method !== "GET" && c.req.method !== "HEAD")) {
      c.set("user", await auth.verifyAccessToken(token));
      return await next();
    }
    const { user, session } = await auth.verifyDeferringSession(token);
    c.set("user", user);
    if (!session) return await next();
    c.set("session", session);
    await next();
    // A handler that failed sent no user data: nothing to check, and with a store that does not
    // answer, a second query would hold the error response for another store bound.
    if (c.error) return;
    await session.settleAlone();
  };
}

/**
 * `fn` given the context of a route behind `requireUser`, whose `c.var.user` is set by type (a
 * handler or a middleware after `requireUser`); without a user, the same 401 as `requireUser`.
 */
function withUser<A extends unknown[], R>(
  fn: (c: SignedInCtx, ...rest: A) => R,
): (c: Ctx, ...rest: A) => R {
  return (c, ...rest) => {
    // Only a route that forgot requireUser gets here: refuse rather than act for nobody.
    if (!c.var.user) throw unauthorized();
    return fn(c as SignedInCtx, ...rest);
  };
}

/**
 * The handlers of a route behind `requireUser` (its own or its folder's), each given the signed-in
 * user's context: `export const handler = signedIn({ GET(c) { c.var.user.id } })`.
 */
export function signedIn(handlers: SignedInHandlers): Handlers {
  const wrapped: Handlers = {};
  for (const method of METHODS) {
    const handle = handlers[method];
    if (handle) wrapped[method] = withUser(handle);
  }
  return wrapped;
}
