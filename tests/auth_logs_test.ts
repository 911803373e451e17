/** No password, hash, token or secret reaches a log line, across a whole account's life. */
import assert from "node:assert/strict";
import { hashToken } from "../lib/auth/sessions.ts";
import { FakeClock } from "../lib/clock.ts";
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
  (open.clock as FakeClock).advance(11_000);
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
