/**
 * The browser session cookie, shared by the browser (supabase-js storage, lib/web/supabase.ts)
 * and the server (the page session, lib/http/page_session.ts). supabase-js stores its session
 * as JSON under its storage key; the storage writes that JSON to one cookie of this name, so
 * the server can read the access token from it. No DOM at module scope: the server imports it.
 */

/** supabase-js's storage key, and the name of the cookie holding the session. */
export const SESSION_COOKIE = "movies-session";

/** How long the browser keeps the cookie; the refresh token decides whether it still works. */
export const SESSION_COOKIE_MAX_AGE_S = 60 * 60 * 24 * 30;

/** The access token in a cookie value (URI-encoded supabase-js session JSON), or undefined. */
export function accessTokenOf(cookieValue: string | undefined): string | undefined {
  if (!cookieValue) return undefined;
  try {
    return accessTokenIn(decodeURIComponent(cookieValue));
  } catch {
    return undefined;
  }
}

/**
 * The access token in the supabase-js session JSON, the cookie's value already decoded (as
 * Hono's `getCookie` gives it on the server), or undefined.
 */
export function accessTokenIn(sessionJson: string | undefined): string | undefined {
  if (!sessionJson) return undefined;
  try {
    const token = JSON.parse(sessionJson)?.access_token;
    return typeof token === "string" && token.length > 0 && token.length < 8192 ? token : undefined;
  } catch {
    return undefined;
  }
}

/** The `Set-Cookie`-style attribute string of the session cookie on `protocol`. */
export function sessionCookieAttributes(protocol: string, maxAgeS: number): string {
  // Lax: sent on top-level navigations to the site (so links from elsewhere render signed in),
  // never on cross-site subrequests. Not HttpOnly: supabase-js reads it in the browser.
  const secure = protocol === "https:" ? "; Secure" : "";
  return `Path=/; Max-Age=${maxAgeS}; SameSite=Lax${secure}`;
}
