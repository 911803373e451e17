/** Two-factor helpers of the tests: codes computed by `otpauth` (not by the server's own code). */
import assert from "node:assert/strict";
import * as OTPAuth from "otpauth";
import type { TestApp } from "./app.ts";
import { signIn, signUp, VERSIONED } from "./auth_requests.ts";

/** The TOTP code of `secret` at `atMs`. */
export function codeAt(secret: string, atMs: number): string {
  const totp = new OTPAuth.TOTP({
    secret: OTPAuth.Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: 6,
    period: 30,
  });
  return totp.generate({ timestamp: atMs });
}

/** The claims of an access token, unverified (the tests read what the server wrote). */
export function claimsOf(token: string): Record<string, unknown> {
  const [, payload] = token.split(".");
  return JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/")));
}

/** A request of supabase-js to a `/auth/v1` route with the bearer's token. */
export function gotrue(
  t: TestApp,
  path: string,
  token: string,
  init: { method?: string; body?: unknown } = {},
): Promise<Response> {
  return t.request(`/auth/v1${path}`, {
    method: init.method ?? "POST",
    headers: { ...VERSIONED, authorization: `Bearer ${token}` },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

/** A signed-up user's password session. */
export async function passwordSession(t: TestApp, email = "two@example.com") {
  const password = "popcorn-matinee-42";
  await signUp(t, email, password).catch(() => undefined);
  const session = await signIn(t, email, password);
  return { email, password, session, token: session.access_token as string };
}

/** Enrols a factor, answers a challenge with the right code; the aal2 session and the secret. */
export async function enrolled(t: TestApp, token: string) {
  const enroll = await gotrue(t, "/factors", token, { body: { factor_type: "totp" } });
  assert.equal(enroll.status, 200);
  const factor = await enroll.json();
  const aal2 = await answer(t, token, factor.id, codeAt(factor.totp.secret, t.clock.now()));
  assert.equal(aal2.status, 200);
  return {
    factorId: factor.id as string,
    secret: factor.totp.secret as string,
    aal2: await aal2.json(),
  };
}

/** Challenges the factor and answers with `code`. */
export async function answer(t: TestApp, token: string, factorId: string, code: string) {
  const challenge = await gotrue(t, `/factors/${factorId}/challenge`, token, { body: {} });
  assert.equal(challenge.status, 200);
  const { id } = await challenge.json();
  return await gotrue(t, `/factors/${factorId}/verify`, token, {
    body: { challenge_id: id, code },
  });
}
