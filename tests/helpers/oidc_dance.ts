/**
 * The whole sign-in of supabase-js `signInWithOAuth` (PKCE) through the service and a real
 * provider: the test plays the browser, following every redirect, signing in and consenting at
 * the provider's pages, until the browser is back on the site with `code` or `error`.
 */
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { decodeJwt, generateKeyPair, importJWK, type JWK, SignJWT } from "jose";
import type { TestApp } from "./app.ts";
import { browserFetch } from "./oidc_idp.ts";

/** The site's address in these tests (the app is called in-process). */
export const SITE = "http://movies.test";

/** The site's supabase-js client, PKCE flow, its storage in memory, talking to the app in-process. */
export function siteClient(t: TestApp): SupabaseClient {
  const store = new Map<string, string>();
  return createClient(SITE, "anon-key", {
    auth: {
      flowType: "pkce",
      persistSession: true,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      storage: {
        getItem: (k) => store.get(k) ?? null,
        setItem: (k, v) => void store.set(k, v),
        removeItem: (k) => void store.delete(k),
      },
    },
    global: { fetch: async (input, init) => await t.app.fetch(new Request(input, init)) },
  });
}

/** Options of one sign-in. */
interface Dance {
  sub: string;
  redirectTo?: string;
  inviteCode?: string;
  /** Changes the URL the provider sends the browser back to (a tampered state). */
  tamperReturn?: (url: URL) => void;
}

/** Follows the sign-in to its end; the URL the browser lands on at the site. */
export async function dance(t: TestApp, sb: SupabaseClient, options: Dance): Promise<URL> {
  const { data, error } = await sb.auth.signInWithOAuth({
    // deno-lint-ignore no-explicit-any
    provider: "oidc" as any,
    options: {
      redirectTo: options.redirectTo ?? `${SITE}/login?next=%2Fwatched`,
      skipBrowserRedirect: true,
      queryParams: options.inviteCode ? { invite_code: options.inviteCode } : undefined,
    },
  });
  if (error) throw error;
  return await follow(t, data.url!, options);
}

/**
 * Plays the browser from `start` (an address at the provider) until it is back on the site; a
 * link from /account (supabase-js `linkIdentity`) starts here with the URL it was given.
 */
export async function follow(
  t: TestApp,
  start: string,
  options: Pick<Dance, "sub" | "tamperReturn"> & {
    /** The site's cookies of this browser (a link's binding). */
    siteCookie?: string;
  },
): Promise<URL> {
  const browser = browserFetch();
  let url = new URL(start);
  let init: RequestInit | undefined;
  for (let hop = 0; hop < 25; hop++) {
    const atSite = url.origin === SITE;
    if (atSite && !url.pathname.startsWith("/auth/v1/")) return url;
    if (atSite && url.pathname === "/auth/v1/callback") options.tamperReturn?.(url);
    const res = atSite
      ? await t.request(url.pathname + url.search, {
        ...init,
        headers: options.siteCookie ? { cookie: options.siteCookie } : undefined,
      })
      : await browser(url.href, init);
    init = undefined;
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      url = new URL(location, url);
      continue;
    }
    const html = await res.text();
    if (!url.pathname.startsWith("/interaction/")) {
      throw new Error(`stuck at ${url} (${res.status}): ${html.slice(0, 300)}`);
    }
    const form: Record<string, string> = html.includes('name="login"')
      ? { prompt: "login", login: options.sub, password: "any" }
      : { prompt: "consent" };
    init = {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    };
  }
  throw new Error("too many redirects");
}

/** Re-signs an ID token with changed claims: with the provider's own key, or a stranger's. */
export async function forge(
  idToken: string,
  change: Record<string, unknown>,
  key: { jwk: JWK } | "foreign",
): Promise<string> {
  const claims = { ...decodeJwt(idToken), ...change };
  const signingKey = key === "foreign"
    ? (await generateKeyPair("RS256")).privateKey
    : await importJWK(key.jwk, "RS256");
  return await new SignJWT(claims)
    .setProtectedHeader({ alg: "RS256", kid: "idp-key-1", typ: "JWT" })
    .sign(signingKey);
}

/** The app's fetch towards the provider, with a hook that may replace the ID token it receives. */
export function tamperingFetch(): {
  fetch: typeof fetch;
  replaceIdToken: ((idToken: string) => Promise<string>) | null;
  idTokens: string[];
} {
  const hook = {
    replaceIdToken: null as ((idToken: string) => Promise<string>) | null,
    idTokens: [] as string[],
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await fetch(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (!url.pathname.endsWith("/token")) return res;
      const body = await res.json();
      if (typeof body.id_token === "string") {
        hook.idTokens.push(body.id_token);
        if (hook.replaceIdToken) body.id_token = await hook.replaceIdToken(body.id_token);
      }
      return Response.json(body, { status: res.status });
    }) as typeof fetch,
  };
  return hook;
}
