/** Signed-in browser contexts for the browser tests: a user made through the API, its cookie. */
import assert from "node:assert/strict";
import type { Browser, BrowserContext } from "playwright-core";
import { SESSION_COOKIE } from "@/lib/web/session_cookie.ts";
import type { TestServer } from "./server.ts";

/** A supabase-js session as the site stores it. */
export interface BrowserSession {
  access_token: string;
  user: { id: string; email: string };
}

/** Signs a new user up through the API and returns the supabase-js session the site stores. */
export async function signedInSession(server: TestServer, email: string): Promise<BrowserSession> {
  const password = "screenshots-password";
  const signup = await fetch(`${server.url}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  assert.equal(signup.status, 201, await signup.text());
  const token = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  assert.equal(token.status, 200);
  return await token.json();
}

/** A browser context signed in with `session`, as if supabase-js had stored it. */
export async function signedInContext(
  browser: Browser,
  server: TestServer,
  session: unknown,
  options: {
    width: number;
    colorScheme?: "dark" | "light";
    javaScriptEnabled?: boolean;
    timezoneId?: string;
  },
): Promise<BrowserContext> {
  // Dark is the site's own look; headless Chromium would otherwise ask for light.
  const context = await browser.newContext({
    viewport: { width: options.width, height: 900 },
    colorScheme: options.colorScheme ?? "dark",
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    timezoneId: options.timezoneId,
  });
  await context.addCookies([{
    name: SESSION_COOKIE,
    value: encodeURIComponent(JSON.stringify(session)),
    url: server.url,
    sameSite: "Lax",
  }]);
  return context;
}
