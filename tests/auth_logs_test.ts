/** No password, hash, token or secret reaches a log line, across a whole account's life. */
import assert from "node:assert/strict";
import { hashToken } from "../lib/identity/auth/sessions.ts";
import { resetMailsSettled } from "../lib/identity/auth/password_reset.ts";
import { testApp } from "./helpers/app.ts";

Deno.test("no password, hash, token or key appears in any log line of sign-up, sign-in, refresh and logout", async () => {
  await using t = await testApp({
    env: {
      // The verifier is unreachable, so the captcha path logs its 503 with the cause.
      CAPTCHA_SECRET: "captcha-secret-value",
      CAPTCHA_VERIFY_URL: "http://127.0.0.1:9/siteverify",
    },
  });
  const json = { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" };
  const email = "private@example.com";
  const password = "hunter2-but-longer";
  const secrets: string[] = [
    password,
    "wrong-password-guess",
    "captcha-secret-value",
    "captcha-tok",
  ];

  const blocked = await t.request("/api/auth/signup", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email, password, captchaToken: "captcha-tok" }),
  });
  assert.equal(blocked.status, 503);
  await blocked.body?.cancel();

  // The same flow without captcha, on the same store and KV.
  await using open = await testApp({ store: t.store, kv: t.kv });
  const created = await open.request("/api/auth/signup", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email, password }),
  });
  assert.equal(created.status, 201);
  await created.body?.cancel();
  const wrong = await open.request("/auth/v1/token?grant_type=password", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email, password: "wrong-password-guess" }),
  });
  assert.equal(wrong.status, 400);
  await wrong.body?.cancel();
  const login = await (await open.request("/auth/v1/token?grant_type=password", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email, password }),
  })).json();
  const refreshed = await (await open.request("/auth/v1/token?grant_type=refresh_token", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ refresh_token: login.refresh_token }),
  })).json();
  const bearer = { authorization: `Bearer ${refreshed.access_token}` };
  for (const path of ["/auth/v1/user", "/api/watched", "/api/mylist"]) {
    const res = await open.request(path, { headers: bearer });
    assert.equal(res.status, 200, path);
    await res.body?.cancel();
  }
  // Past the 10 s reuse interval, where presenting a rotated token again ends the session.
  open.clock.advance(11_000);
  const replay = await open.request("/auth/v1/token?grant_type=refresh_token", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ refresh_token: login.refresh_token }),
  });
  assert.equal(replay.status, 400);
  await replay.body?.cancel();
  // The replay ended the session, so its access token's logout is GoTrue's 403.
  const out = await open.request("/auth/v1/logout", { method: "POST", headers: bearer });
  assert.equal(out.status, 403);
  await out.body?.cancel();

  const [row] = await t.store.query<{ encrypted_password: string }>(
    "select encrypted_password from auth.users where email = $1",
    [email],
  );
  for (const token of [login, refreshed]) {
    secrets.push(token.access_token, token.access_token.split(".")[2], token.refresh_token);
    secrets.push(await hashToken(token.refresh_token));
  }
  secrets.push(row.encrypted_password, JSON.parse(t.config.authSigningKey!).d);

  const logs = JSON.stringify([...t.logs, ...open.logs]);
  assert.ok(open.logs.length >= 8, "the requests were logged");
  assert.ok(t.logs.some((l) => l.level === "error"), "the captcha failure was logged");
  for (const secret of secrets) {
    assert.ok(!logs.includes(secret), `a log line holds ${secret.slice(0, 6)}...`);
  }
});

Deno.test("no password, token or reset link appears in any log line of a password change, a reset and a deletion, but the operator's warn line", async () => {
  await using t = await testApp({ env: { SITE_URL: "http://movies.test" } });
  const json = { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" };
  const email = "lifecycle@example.com";
  const passwords = ["first-password-ruby-42", "second-password-opal-77", "third-password-jade-19"];
  const send = (path: string, init: RequestInit) =>
    t.request(path, init).then(async (res) => {
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    });
  const signUp = await send("/api/auth/signup", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email, password: passwords[0] }),
  });
  assert.equal(signUp.status, 201);
  const login = await send("/auth/v1/token?grant_type=password", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email, password: passwords[0] }),
  });
  const bearer = { ...json, authorization: `Bearer ${login.body.access_token}` };
  const weak = await send("/auth/v1/user", {
    method: "PUT",
    headers: bearer,
    body: JSON.stringify({ password: "password123" }),
  });
  assert.equal(weak.status, 422);
  const changed = await send("/auth/v1/user", {
    method: "PUT",
    headers: bearer,
    body: JSON.stringify({ password: passwords[1] }),
  });
  assert.equal(changed.status, 200);
  assert.equal(
    (await send("/auth/v1/recover", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email }),
    })).status,
    200,
  );
  await resetMailsSettled(t.deps);
  const operator = t.logs.find((l) => l.event === "password_reset_link");
  const link = new URL(String(operator?.link));
  const token = link.searchParams.get("token_hash")!;
  await (await t.request(link.pathname + link.search)).body?.cancel();
  const verified = await send("/auth/v1/verify", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ type: "recovery", token_hash: token }),
  });
  assert.equal(verified.status, 200);
  const recovered = { ...json, authorization: `Bearer ${verified.body.access_token}` };
  const reset = await send("/auth/v1/user", {
    method: "PUT",
    headers: recovered,
    body: JSON.stringify({ password: passwords[2] }),
  });
  assert.equal(reset.status, 200);
  await (await t.request(`/auth/v1/verify?type=recovery&token=${token}`, { redirect: "manual" }))
    .body?.cancel();
  const deleted = await t.request("/api/account", {
    method: "DELETE",
    headers: recovered,
    body: JSON.stringify({ confirm: "delete my account" }),
  });
  assert.equal(deleted.status, 204);

  const secrets = [
    ...passwords,
    "password123",
    token,
    await hashToken(token),
    link.href,
    login.body.access_token,
    login.body.refresh_token,
    verified.body.access_token,
    verified.body.refresh_token,
  ];
  const others = JSON.stringify(t.logs.filter((l) => l !== operator));
  assert.ok(t.logs.length >= 9, "the requests were logged");
  for (const secret of secrets) {
    assert.ok(!others.includes(secret), `a log line holds ${secret.slice(0, 6)}...`);
  }
  assert.equal(operator?.level, "warn");
});
