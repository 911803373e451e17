/** Requests of the auth tests to the built-in provider: sign up, token grants, sign in. */
import assert from "node:assert/strict";
import type { TestApp } from "./app.ts";

/** A JSON body's content type, without the API version header (GoTrue's legacy error shape). */
export const JSON_TYPE = { "content-type": "application/json" };
/** What supabase-js sends: JSON plus the API version that selects GoTrue's current error shape. */
export const VERSIONED = { ...JSON_TYPE, "x-supabase-api-version": "2024-01-01" };

/** Signs `email` up through POST /api/auth/signup and returns the new user's id. */
export async function signUp(t: TestApp, email: string, password: string): Promise<string> {
  const res = await t.request("/api/auth/signup", {
    method: "POST",
    headers: JSON_TYPE,
    body: JSON.stringify({ email, password }),
  });
  assert.equal(res.status, 201);
  return (await res.json()).user.id;
}

/** POSTs `body` to /auth/v1/token with `grant`, as supabase-js does (versioned by default). */
export function token(
  t: TestApp,
  grant: string,
  body: unknown,
  headers: Record<string, string> = VERSIONED,
): Promise<Response> {
  return t.request(`/auth/v1/token?grant_type=${grant}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
}

/** Signs in with the password grant and returns GoTrue's session body. */
export async function signIn(t: TestApp, email: string, password: string) {
  const res = await token(t, "password", { email, password });
  assert.equal(res.status, 200);
  return await res.json();
}

/** POSTs `body` to /api/auth/signup (a string body is sent as it is). */
export function signup(t: TestApp, body: unknown, headers: Record<string, string> = {}) {
  return t.request("/api/auth/signup", {
    method: "POST",
    headers: { ...JSON_TYPE, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}
