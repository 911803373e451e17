/**
 * PUT /auth/v1/user on the built-in provider (supabase-js `updateUser`): a new password under
 * the password rule; the caller's session stays and the user's other sessions end.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "./helpers/app.ts";

const JSON_V = { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" };
const PASSWORD = "popcorn-matinee-42";
const NEW_PASSWORD = "drive-in-double-feature";

async function signUp(t: TestApp, email: string) {
  const res = await t.request("/api/auth/signup", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  assert.equal(res.status, 201);
  await res.body?.cancel();
}

async function signIn(t: TestApp, email: string, password: string) {
  const res = await t.request("/auth/v1/token?grant_type=password", {
    method: "POST",
    headers: JSON_V,
    body: JSON.stringify({ email, password }),
  });
  return { status: res.status, body: await res.json() };
}

function put(t: TestApp, token: string, body: unknown, headers: Record<string, string> = JSON_V) {
  return t.request("/auth/v1/user", {
    method: "PUT",
    headers: { ...headers, authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
}

async function watchedStatus(t: TestApp, token: string): Promise<number> {
  const res = await t.request("/api/watched", { headers: { authorization: `Bearer ${token}` } });
  await res.body?.cancel();
  return res.status;
}

Deno.test("PUT /auth/v1/user sets a new password: this session stays, the others end, the old password fails", async () => {
  await using t = await testApp();
  await signUp(t, "change@example.com");
  const laptop = (await signIn(t, "change@example.com", PASSWORD)).body;
  const phone = (await signIn(t, "change@example.com", PASSWORD)).body;
  const res = await put(t, laptop.access_token, { password: NEW_PASSWORD });
  assert.equal(res.status, 200);
  const user = await res.json();
  assert.equal(user.email, "change@example.com");
  assert.equal(user.encrypted_password, undefined);

  assert.equal(await watchedStatus(t, laptop.access_token), 200);
  assert.equal(await watchedStatus(t, phone.access_token), 401);
  const refresh = await t.request("/auth/v1/token?grant_type=refresh_token", {
    method: "POST",
    headers: JSON_V,
    body: JSON.stringify({ refresh_token: phone.refresh_token }),
  });
  assert.equal(refresh.status, 400, "the other session's refresh token is gone too");
  await refresh.body?.cancel();
  assert.equal((await signIn(t, "change@example.com", PASSWORD)).status, 400);
  assert.equal((await signIn(t, "change@example.com", NEW_PASSWORD)).status, 200);
});

Deno.test("PUT /auth/v1/user refuses weak, short, long and unchanged passwords in GoTrue's shapes", async () => {
  await using t = await testApp();
  await signUp(t, "jane.doe@example.com");
  const { access_token } = (await signIn(t, "jane.doe@example.com", PASSWORD)).body;

  const weak = await put(t, access_token, { password: "password1234" });
  assert.equal(weak.status, 422);
  assert.equal(weak.headers.get("x-sb-error-code"), "weak_password");
  const body = await weak.json();
  assert.equal(body.code, "weak_password");
  assert.match(body.message, /too easy to guess/);
  assert.deepEqual(body.weak_password, { reasons: ["strength"] });

  // Weak only because it is the email's local part; without the API version header: GoTrue's
  // older shape, with the same member beside it.
  const legacy = await put(t, access_token, { password: "jane.doe2024" }, {
    "content-type": "application/json",
  });
  assert.equal(legacy.status, 422);
  const old = await legacy.json();
  assert.equal(old.code, 422);
  assert.equal(old.error_code, "weak_password");
  assert.deepEqual(old.weak_password, { reasons: ["strength"] });

  const short = await put(t, access_token, { password: "short" });
  assert.equal(short.status, 422);
  assert.deepEqual((await short.json()).weak_password, { reasons: ["length"] });
  const long = await put(t, access_token, { password: "é".repeat(37) });
  assert.equal(long.status, 400);
  assert.equal((await long.json()).code, "validation_failed");
  const same = await put(t, access_token, { password: PASSWORD });
  assert.equal(same.status, 422);
  assert.equal((await same.json()).code, "same_password");
  const email = await put(t, access_token, { email: "new@example.com" });
  assert.equal(email.status, 422);
  await email.body?.cancel();
  assert.equal((await signIn(t, "jane.doe@example.com", PASSWORD)).status, 200, "unchanged");
});

Deno.test("PUT /auth/v1/user without a live session answers GoTrue's 401/403", async () => {
  await using t = await testApp();
  await signUp(t, "gone@example.com");
  const { access_token } = (await signIn(t, "gone@example.com", PASSWORD)).body;
  const none = await t.request("/auth/v1/user", { method: "PUT", headers: JSON_V, body: "{}" });
  assert.equal(none.status, 401);
  await none.body?.cancel();
  const out = await t.request("/auth/v1/logout", {
    method: "POST",
    headers: { ...JSON_V, authorization: `Bearer ${access_token}` },
  });
  assert.equal(out.status, 204);
  const after = await put(t, access_token, { password: NEW_PASSWORD });
  assert.equal(after.status, 403);
  assert.equal((await after.json()).code, "session_not_found");
});
