/**
 * Helpers of the website tests: the session cookie supabase-js would write for a user, and
 * small readers of rendered HTML (island markers and their props, text, image alts).
 */
import { SESSION_COOKIE } from "../../lib/web/session_cookie.ts";

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

function unescapeHtml(text: string): string {
  return text.replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">").replaceAll("&amp;", "&");
}

/** The island markers of a page, in order, with their props parsed back from data-props. */
export function islandsOf(html: string): { name: string; props: Record<string, unknown> }[] {
  const found: { name: string; props: Record<string, unknown> }[] = [];
  for (const m of html.matchAll(/<div data-island="([A-Za-z0-9]+)" data-props="([^"]*)"/g)) {
    found.push({ name: m[1], props: JSON.parse(unescapeHtml(m[2])) });
  }
  return found;
}

/** The page's text without tags (for "the page says X" checks). */
export function textOf(html: string): string {
  return unescapeHtml(html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " "))
    .replace(/\s+/g, " ");
}

/** Every <img> tag of the page. */
export function imagesOf(html: string): string[] {
  return [...html.matchAll(/<img\b[^>]*>/g)].map((m) => m[0]);
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
