/**
 * Signing out without loading supabase-js (a quarter of a megabyte): most signed-in pages have
 * no other island than the header's Sign out, so they should not ship the client for it. The
 * call is the one supabase-js makes (GoTrue's POST /auth/v1/logout with the access token);
 * when the token has run out, supabase-js is loaded after all, since it refreshes first and so
 * still ends the session on the server.
 */
import { forgetOfflineCopies } from "./offline.ts";
import { liveAccessToken } from "./live_session.ts";
import { pageMeta } from "./page_meta.ts";
import { SESSION_COOKIE, sessionCookieAttributes } from "./session_cookie.ts";

async function logout(token: string, scope: "global" | "local"): Promise<boolean> {
  const base = pageMeta("supabase-url") ?? location.origin;
  const response = await fetch(`${base}/auth/v1/logout?scope=${scope}`, {
    method: "POST",
    // The built-in provider ignores the key, as supabase-js sends one anyway.
    headers: { authorization: `Bearer ${token}`, apikey: pageMeta("supabase-anon-key") ?? "anon" },
  });
  return response.ok;
}

/**
 * Signs out everywhere this session reaches (or, with scope `local`, this session only), and
 * at least in this browser: the cookie and the device's offline copies go whatever happens.
 */
export async function signOut(options: { scope?: "global" | "local" } = {}): Promise<void> {
  const scope = options.scope ?? "global";
  try {
    const token = liveAccessToken();
    if (!token || !await logout(token, scope)) {
      const { signOutWithClient } = await import("./supabase.ts");
      await signOutWithClient({ scope });
    }
  } finally {
    // Even if the server was unreachable: a cookie left behind would keep pages signed in.
    document.cookie = `${SESSION_COOKIE}=; ${sessionCookieAttributes(location.protocol, 0)}`;
    await forgetOfflineCopies();
  }
}
