/**
 * The browser's supabase-js client (islands only): it signs in against Supabase Auth when
 * the site is configured with it, else against this site's own GoTrue-compatible provider
 * (/auth/v1), and keeps the session in one cookie the server reads to render the user's pages.
 */
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { pageMeta } from "./page_meta.ts";
import {
  SESSION_COOKIE,
  SESSION_COOKIE_MAX_AGE_S,
  sessionCookieAttributes,
} from "./session_cookie.ts";

// Our tokens are small (an ES256 JWT and a short user), so the session fits one cookie;
// cookies past ~4 KB are dropped by browsers, which would sign the user out on reload.
const COOKIE_LIMIT = 4000;

function readCookie(name: string): string | null {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

/** supabase-js `auth.storage` over document.cookie: one cookie per key, SameSite=Lax, Path=/. */
const cookieStorage = {
  getItem(key: string): string | null {
    return readCookie(key);
  },
  setItem(key: string, value: string): void {
    const encoded = encodeURIComponent(value);
    if (encoded.length > COOKIE_LIMIT) {
      console.warn(`The session (${encoded.length} bytes) is too large for one cookie.`);
    }
    document.cookie = `${key}=${encoded}; ${
      sessionCookieAttributes(location.protocol, SESSION_COOKIE_MAX_AGE_S)
    }`;
  },
  removeItem(key: string): void {
    document.cookie = `${key}=; ${sessionCookieAttributes(location.protocol, 0)}`;
  },
};

type AuthOptions = NonNullable<NonNullable<Parameters<typeof createClient>[2]>["auth"]>;

/** A client of the identity provider the `<meta>` settings the shell renders name. */
function newClient(auth: AuthOptions): SupabaseClient {
  // The built-in provider ignores the key, but supabase-js insists on one.
  return createClient(
    pageMeta("supabase-url") ?? location.origin,
    pageMeta("supabase-anon-key") ?? "anon",
    { auth: { detectSessionInUrl: false, ...auth } },
  );
}

// The page's session: one cookie, which the server reads to render the user's pages.
const PAGE_SESSION = { storage: cookieStorage, storageKey: SESSION_COOKIE, persistSession: true };

let client: SupabaseClient | undefined;

/** The page's one client, created on first use. */
export function supabase(): SupabaseClient {
  client ??= newClient({ ...PAGE_SESSION, autoRefreshToken: true });
  return client;
}

let oauth: SupabaseClient | undefined;

/**
 * The client of the identity provider's sign-in (PKCE): the same session cookie as `supabase()`,
 * so the session it gets is the page's; only its flow differs (the code verifier waits in a
 * cookie of its own while the browser is away).
 */
export function oauthClient(): SupabaseClient {
  oauth ??= newClient({ ...PAGE_SESSION, autoRefreshToken: false, flowType: "pkce" });
  return oauth;
}

/**
 * The current access token, refreshed first when it is about to expire (lib/web/live_session.ts
 * calls this only then), or undefined.
 */
export async function refreshedAccessToken(): Promise<string | undefined> {
  const { data } = await supabase().auth.getSession();
  return data.session?.access_token;
}

/**
 * Signs out through supabase-js, which refreshes an expired session first (lib/web/sign_out.ts
 * calls it only then), and at least in this browser.
 */
export async function signOutWithClient(
  options: { scope?: "global" | "local" } = {},
): Promise<void> {
  try {
    const { error } = await supabase().auth.signOut({ scope: options.scope ?? "global" });
    // The server may be unreachable; the local session must still go.
    if (error) await supabase().auth.signOut({ scope: "local" });
  } finally {
    // Even if supabase-js threw: a cookie left behind would keep the server rendering signed in.
    cookieStorage.removeItem(SESSION_COOKIE);
  }
}

/**
 * Whether `password` is the user's current one, checked by a sign-in of a client of its own that
 * keeps nothing: the page's session (and its second factor's aal2) stays as it was, and the
 * session the check made is ended again at once. Answers supabase-js's error, or null.
 */
export async function checkPassword(email: string, password: string) {
  const probe = newClient({
    persistSession: false,
    autoRefreshToken: false,
    storageKey: "movies-password-check",
  });
  const { error } = await probe.auth.signInWithPassword({ email, password });
  if (!error) await probe.auth.signOut({ scope: "local" }).catch(() => {});
  return error;
}
