/**
 * Password reset on the built-in provider (docs/identity.md): POST /auth/v1/recover mails a
 * single-use link valid for an hour, /auth/v1/verify spends it, and the limits stay silent.
 */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { resetMailsSettled } from "../lib/identity/auth/password_reset.ts";
import { type TestApp, testApp } from "./helpers/app.ts";
import { type FakeSmtp, startFakeSmtp } from "./helpers/fake_smtp.ts";

const JSON_V = { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" };
const SITE = "http://movies.test";
const PASSWORD = "popcorn-matinee-42";

async function signUp(w: { t: TestApp; smtp?: FakeSmtp }, email: string, password = PASSWORD) {
  const before = w.smtp?.mails.length ?? 0;
  const res = await w.t.request("/api/auth/signup", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  assert.equal(res.status, 201);
  await res.body?.cancel();
  // With SMTP the signup mails its confirmation link first (tests/auth_signup_confirmation_test.ts):
  // set aside, so these tests count the reset mails alone.
  if (w.smtp) {
    assert.match((await w.smtp.waitFor(before + 1)).raw, /Subject: Confirm your email address/);
    w.smtp.mails.splice(before, 1);
  }
}

function recover(t: TestApp, email: string, ip = "192.0.2.1") {
  return t.request("/auth/v1/recover", {
    method: "POST",
    headers: { ...JSON_V, "x-forwarded-for": ip },
    body: JSON.stringify({ email }),
  });
}

function verify(t: TestApp, body: Record<string, unknown>) {
  return t.request("/auth/v1/verify", {
    method: "POST",
    headers: JSON_V,
    body: JSON.stringify(body),
  });
}

async function world(clock = new FakeClock()) {
  const smtp = await startFakeSmtp();
  const t = await testApp({
    clock,
    env: {
      SITE_URL: SITE,
      SMTP_URL: smtp.url,
      MAIL_FROM: "Movies <no-reply@movies.test>",
      CLIENT_IP_HEADER: "x-forwarded-for",
    },
  });
  return {
    t,
    smtp,
    clock,
    async [Symbol.asyncDispose]() {
      await resetMailsSettled(t.deps);
      await t[Symbol.asyncDispose]();
      await smtp.close();
    },
  };
}

function tokenOf(text: string): string {
  const match = /http:\/\/movies\.test\/reset-password\?token_hash=([A-Za-z0-9_-]+)&type=recovery/
    .exec(text);
  assert.ok(match, `no reset link in ${text}`);
  return match[1];
}

async function mailedToken(w: { smtp: FakeSmtp }, n: number): Promise<string> {
  return tokenOf((await w.smtp.waitFor(n)).text);
}

Deno.test("POST /auth/v1/recover mails a reset link by SMTP (text and HTML) and answers 200 {}", async () => {
  await using w = await world();
  await signUp(w, "reader@example.com");
  const res = await recover(w.t, "Reader@Example.com");
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), {});
  const mail = await w.smtp.waitFor(1);
  assert.deepEqual(mail.to, ["reader@example.com"]);
  assert.equal(mail.from, "no-reply@movies.test");
  assert.equal(mail.user, "mailer", "authenticated with the URL's credentials");
  assert.match(mail.raw, /^Subject: Reset your password on movies\.test/m);
  const token = tokenOf(mail.text);
  assert.ok(
    mail.html.includes(`href="${SITE}/reset-password?token_hash=${token}&amp;type=recovery"`),
  );
  const [row] = await w.t.store.query<{ token_hash: string }>(
    "select token_hash from public.recovery_tokens",
  );
  assert.notEqual(row.token_hash, token, "stored hashed");
  assert.equal(row.token_hash.length, 64);
});

Deno.test("POST /auth/v1/recover for an unknown email answers 200 {} and sends no mail", async () => {
  await using w = await world();
  const res = await recover(w.t, "nobody@example.com");
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), {});
  await resetMailsSettled(w.t.deps);
  assert.equal(w.smtp.mails.length, 0);
  const bad = await recover(w.t, "not-an-email");
  assert.equal(bad.status, 400);
  assert.equal((await bad.json()).code, "validation_failed");
});

Deno.test("the reset link signs in once: verify answers a session, then 403 otp_expired", async () => {
  await using w = await world();
  await signUp(w, "once@example.com");
  await (await recover(w.t, "once@example.com")).body?.cancel();
  const token = await mailedToken(w, 1);
  const res = await verify(w.t, { type: "recovery", token_hash: token });
  assert.equal(res.status, 200);
  const session = await res.json();
  assert.equal(session.token_type, "bearer");
  assert.equal(session.user.email, "once@example.com");
  const me = await w.t.request("/auth/v1/user", {
    headers: { authorization: `Bearer ${session.access_token}` },
  });
  assert.equal(me.status, 200);
  await me.body?.cancel();

  const again = await verify(w.t, { type: "recovery", token_hash: token });
  assert.equal(again.status, 403);
  assert.equal(again.headers.get("x-sb-error-code"), "otp_expired");
  assert.deepEqual(await again.json(), {
    code: "otp_expired",
    message: "Token has expired or is invalid",
  });
  // A type this provider does not serve is 400; a recovery token is no signup confirmation.
  const other = await verify(w.t, { type: "magiclink", token_hash: token });
  assert.equal(other.status, 400);
  await other.body?.cancel();
  const signup = await verify(w.t, { type: "signup", token_hash: token });
  assert.equal(signup.status, 403);
  assert.equal((await signup.json()).code, "otp_expired");
});

Deno.test("a reset link works for one hour of the injected clock, then 403 otp_expired", async () => {
  await using w = await world();
  await signUp(w, "late@example.com");
  await (await recover(w.t, "late@example.com")).body?.cancel();
  const first = await mailedToken(w, 1);
  w.clock.advance(60 * 60_000 - 1000);
  await (await recover(w.t, "late@example.com")).body?.cancel();
  const second = await mailedToken(w, 2);
  // Only the latest mail's link works.
  assert.equal((await verify(w.t, { type: "recovery", token_hash: first })).status, 403);
  w.clock.advance(60 * 60_000);
  const expired = await verify(w.t, { type: "recovery", token_hash: second });
  assert.equal(expired.status, 403);
  assert.equal((await expired.json()).code, "otp_expired");
});

Deno.test("recover sends at most 3 mails per email and serves 20 requests per address an hour, silently", async () => {
  await using w = await world();
  await signUp(w, "many@example.com");
  for (let i = 0; i < 5; i++) {
    const res = await recover(w.t, "many@example.com", `192.0.2.${i}`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {});
  }
  await resetMailsSettled(w.t.deps);
  assert.equal(w.smtp.mails.length, 3);

  await signUp(w, "addr@example.com");
  for (let i = 0; i < 20; i++) {
    await (await recover(w.t, `stranger${i}@example.com`, "198.51.100.7")).body?.cancel();
  }
  const res = await recover(w.t, "addr@example.com", "198.51.100.7");
  assert.equal(res.status, 200);
  await res.body?.cancel();
  await resetMailsSettled(w.t.deps);
  assert.equal(w.smtp.mails.length, 3, "the 21st request from the address sent nothing");

  w.clock.advance(60 * 60_000);
  await (await recover(w.t, "addr@example.com", "198.51.100.7")).body?.cancel();
  await w.smtp.waitFor(4);
});

Deno.test("GET /auth/v1/verify redirects to /reset-password with the session or GoTrue's error in the fragment", async () => {
  await using w = await world();
  await signUp(w, "link@example.com");
  await (await recover(w.t, "link@example.com")).body?.cancel();
  const token = await mailedToken(w, 1);
  const url = `/auth/v1/verify?token=${token}&type=recovery&redirect_to=https://evil.example/x`;
  const res = await w.t.request(url, { redirect: "manual" });
  assert.equal(res.status, 303);
  const location = new URL(res.headers.get("location")!);
  assert.equal(`${location.origin}${location.pathname}`, `${SITE}/reset-password`);
  const fragment = new URLSearchParams(location.hash.slice(1));
  assert.equal(fragment.get("type"), "recovery");
  assert.equal(fragment.get("token_type"), "bearer");
  assert.equal(fragment.get("expires_in"), "3600");
  const me = await w.t.request("/auth/v1/user", {
    headers: { authorization: `Bearer ${fragment.get("access_token")}` },
  });
  assert.equal(me.status, 200);
  await me.body?.cancel();

  const again = await w.t.request(`/auth/v1/verify?token=${token}&type=recovery`, {
    redirect: "manual",
  });
  assert.equal(again.status, 303);
  const error = new URLSearchParams(new URL(again.headers.get("location")!).hash.slice(1));
  assert.equal(error.get("error"), "access_denied");
  assert.equal(error.get("error_code"), "otp_expired");
});

Deno.test("without SMTP_URL the reset link is logged once at warn, and no other line holds the token", async () => {
  await using t = await testApp({ env: { SITE_URL: SITE } });
  await signUp({ t }, "operator@example.com");
  await (await recover(t, "operator@example.com")).body?.cancel();
  await (await recover(t, "missing@example.com")).body?.cancel();
  await resetMailsSettled(t.deps);
  const warns = t.logs.filter((l) => l.level === "warn");
  assert.equal(warns.length, 1);
  assert.equal(warns[0].event, "password_reset_link");
  assert.equal(warns[0].to, "operator@example.com");
  const token = tokenOf(String(warns[0].link));
  const session = await verify(t, { type: "recovery", token_hash: token });
  assert.equal(session.status, 200);
  await session.body?.cancel();
  const others = JSON.stringify(t.logs.filter((l) => l !== warns[0]));
  assert.ok(!others.includes(token));
});

Deno.test("Supabase mode does not serve /auth/v1/recover or /auth/v1/verify (404)", async () => {
  await using t = await testApp({
    env: { SUPABASE_URL: "http://127.0.0.1:9", SUPABASE_ANON_KEY: "anon" },
  });
  for (
    const [method, path] of [["POST", "/auth/v1/recover"], ["POST", "/auth/v1/verify"], [
      "GET",
      "/auth/v1/verify?type=recovery&token=x",
    ], ["PUT", "/auth/v1/user"]]
  ) {
    const res = await t.request(path, {
      method,
      headers: JSON_V,
      body: method === "GET" ? undefined : "{}",
    });
    assert.equal(res.status, 404, `${method} ${path}`);
    await res.body?.cancel();
  }
});
