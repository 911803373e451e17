/**
 * The session as the page finds it in its cookie, read without supabase-js (a quarter of a
 * megabyte): while the access token has a minute left, islands use it as it is, and only a
 * token about to run out loads supabase-js, which refreshes it and writes the cookie again.
 */
import { accessTokenOf, SESSION_COOKIE } from "./session_cookie.ts";

function rawCookie(name: string): string | undefined {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}

/** The cookie's access token while it has at least a minute left, else undefined. */
export function liveAccessToken(): string | undefined {
  const token = accessTokenOf(rawCookie(SESSION_COOKIE));
  try {
    const payload = JSON.parse(atob(token!.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
    return payload.exp * 1000 > Date.now() + 60_000 ? token : undefined;
  } catch {
    return undefined;
  }
}

/** The current access token: the cookie's while live, else refreshed by supabase-js first. */
export async function accessToken(): Promise<string | undefined> {
  const live = liveAccessToken();
  if (live) return live;
  const { refreshedAccessToken } = await import("./supabase.ts");
  return await refreshedAccessToken();
}
