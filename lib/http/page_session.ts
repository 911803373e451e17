/**
 * The page session (docs/website.md): pages render for the user whose access token is in
 * the session cookie supabase-js writes (lib/web/supabase.ts). Never on /api (but its /api/docs
 * page) or /auth: those
 * accept only the Bearer header, so a cookie can never act for the user there (no CSRF).
 */
import { getCookie } from "hono/cookie";
import { Problem } from "../core/problem.ts";
import { accessTokenIn, SESSION_COOKIE } from "../web/session_cookie.ts";
import type { Ctx, Middleware } from "./app_env.ts";

/**
 * Paths a cookie must never authenticate (a webhook or a feed is its secret alone). `/api/docs` is a
 * page, not an API route: it reads the cookie only to show the signed-in header and hand the token to its own "Try it out".
 */
export function isCookieFreePath(path: string): boolean {
  return path !== "/api/docs" && /^\/(api|auth|static|hooks|feeds)(\/|$)/.test(path);
}

/** Whether the request carries a session cookie at all (valid or not). */
export function hasSessionCookie(c: Ctx): boolean {
  return Boolean(getCookie(c, SESSION_COOKIE));
}

/**
 * Sets `c.var.user` from a valid session cookie; a bad one just leaves the page signed out, and
 * one that still owes its two-factor code sets `c.var.codeOwed` instead (docs/identity.md).
 */
export function pageSession(): Middleware {
  return async function pageSession(c, next) {
    if (!isCookieFreePath(c.req.path)) {
      const token = accessTokenIn(getCookie(c, SESSION_COOKIE));
      if (token) {
        try {
          c.set("user", await c.var.services.auth.verifyAccessToken(token));
        } catch (error) {
          // Expired or foreign: the page renders signed out and the browser refreshes it.
          if (error instanceof Problem && error.code === "mfa_required") c.set("codeOwed", true);
        }
      }
    }
    await next();
  };
}
