/**
 * Helpers of the website tests: the session cookie supabase-js would write for a user, and
 * the island markers of a rendered page, and a fetch of a page's status, headers and HTML.
 */
import { SESSION_COOKIE } from "@/lib/web/session_cookie.ts";
import { parseHtml } from "./dom.ts";

/** The `Cookie` header of a browser signed in with `token`, as lib/web/supabase.ts stores it. */
export function sessionCookie(token: string, email = "user@example.test"): string {
  const session = {
    access_token: token,
    token_type: "bearer",
    expires_in: 3600,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    refresh_token: "refresh-token-of-the-test",
    user: { id: "00000000-0000-0000-0000-000000000000", email, aud: "authenticated" },
  };
  return `other=1; ${SESSION_COOKIE}=${encodeURIComponent(JSON.stringify(session))}; theme=dark`;
}

/** The island markers of a page, in order, with their props parsed back from data-props. */
export function islandsOf(html: string): { name: string; props: Record<string, unknown> }[] {
  return Array.from(parseHtml(html).querySelectorAll("[data-island]")).map((marker) => ({
    name: marker.getAttribute("data-island") ?? "",
    props: JSON.parse(marker.getAttribute("data-props") ?? "null"),
  }));
}

/** Fetches `path` from `t` and returns status, headers and body text. */
export async function get(
  t: { request(path: string, init?: RequestInit): Promise<Response> },
  path: string,
  init?: RequestInit,
): Promise<{ status: number; headers: Headers; html: string }> {
  const response = await t.request(path, init);
  return { status: response.status, headers: response.headers, html: await response.text() };
}
