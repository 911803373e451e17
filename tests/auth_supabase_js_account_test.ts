/**
 * The real supabase-js client against a running built-in provider, for the account calls of
 * docs/identity.md: updateUser, resetPasswordForEmail with the link read from a fake SMTP
 * server, verifyOtp, and signOut({scope: "others"}).
 */
import assert from "node:assert/strict";
import { AuthApiError, AuthWeakPasswordError, createClient } from "@supabase/supabase-js";
import { type Clock, systemClock } from "../lib/core/clock.ts";
import { resetMailsSettled } from "../lib/identity/auth/password_reset.ts";
import { type TestApp, testApp } from "./helpers/app.ts";
import { type FakeSmtp, startFakeSmtp } from "./helpers/fake_smtp.ts";

/** The wall clock (supabase-js compares expiry with it), moved forward on demand. */
class ShiftedClock implements Clock {
  shiftMs = 0;
  now(): number {
    return Date.now() + this.shiftMs;
  }
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }
  every(ms: number, fn: () => void): () => void {
    return systemClock.every(ms, fn);
  }
}

interface Running extends AsyncDisposable {
  baseUrl: string;
  t: TestApp;
  smtp: FakeSmtp;
  clock: ShiftedClock;
}

async function runningServer(): Promise<Running> {
  let handle: ((req: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>) | null =
    null;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req, info) => handle ? handle(req, info) : new Response("starting", { status: 503 }),
  );
  const baseUrl = `http://127.0.0.1:${server.addr.port}`;
  const smtp = await startFakeSmtp();
  const clock = new ShiftedClock();
  const t = await testApp({
    env: { SITE_URL: baseUrl, SMTP_URL: smtp.url, MAIL_FROM: "no-reply@movies.test" },
    clock,
  });
  handle = (req, info) => t.app.fetch(req, info);
  return {
    baseUrl,
    t,
    smtp,
    clock,
    async [Symbol.asyncDispose]() {
      await resetMailsSettled(t.deps);
      await server.shutdown();
      await t[Symbol.asyncDispose]();
      await smtp.close();
    },
  };
}

function client(baseUrl: string) {
  return createClient(baseUrl, "anon-key", {
    auth: { persistSession: false, autoRefreshToken: false },
  });
}

async function signUp(s: Running, email: string, password: string) {
  const before = s.smtp.mails.length;
  const res = await fetch(`${s.baseUrl}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  assert.equal(res.status, 201);
  await res.body?.cancel();
  // The signup mails its confirmation link first (tests/auth_signup_confirmation_test.ts): set
  // aside, so these tests read the reset mails alone.
  assert.match((await s.smtp.waitFor(before + 1)).raw, /Subject: Confirm your email address/);
  s.smtp.mails.splice(before, 1);
}

async function watched(baseUrl: string, token: string): Promise<number> {
  const res = await fetch(`${baseUrl}/api/watched`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await res.body?.cancel();
  return res.status;
}

Deno.test("supabase-js resets a password: resetPasswordForEmail, the mailed link, verifyOtp, updateUser", async () => {
  await using s = await runningServer();
  const email = "forgetful@example.com";
  const oldPassword = "popcorn-matinee-42";
  const newPassword = "drive-in-double-feature";
  await signUp(s, email, oldPassword);

  const supabase = client(s.baseUrl);
  const unknown = await supabase.auth.resetPasswordForEmail("nobody@example.com");
  assert.equal(unknown.error, null);
  const sent = await supabase.auth.resetPasswordForEmail(email);
  assert.equal(sent.error, null);
  const mail = await s.smtp.waitFor(1);
  assert.deepEqual(mail.to, [email]);
  await resetMailsSettled(s.t.deps);
  assert.equal(s.smtp.mails.length, 1, "no mail for the unknown email");

  const link = /(http:\/\/\S+\/reset-password\?token_hash=[\w-]+&type=recovery)/.exec(mail.text)
    ?.[1];
  assert.ok(link, mail.text);
  assert.ok(link.startsWith(`${s.baseUrl}/reset-password?`));
  const tokenHash = new URL(link).searchParams.get("token_hash")!;

  const verified = await supabase.auth.verifyOtp({ token_hash: tokenHash, type: "recovery" });
  assert.equal(verified.error, null);
  assert.equal(verified.data.user?.email, email);
  assert.ok(verified.data.session?.access_token);

  const weak = await supabase.auth.updateUser({ password: "password123" });
  assert.ok(weak.error instanceof AuthWeakPasswordError, String(weak.error));
  assert.equal(weak.error.code, "weak_password");
  assert.deepEqual(weak.error.reasons, ["strength"]);

  const updated = await supabase.auth.updateUser({ password: newPassword });
  assert.equal(updated.error, null);
  assert.equal(updated.data.user?.email, email);

  const fresh = client(s.baseUrl);
  const good = await fresh.auth.signInWithPassword({ email, password: newPassword });
  assert.equal(good.error, null);
  const old = await fresh.auth.signInWithPassword({ email, password: oldPassword });
  assert.ok(old.error instanceof AuthApiError);
  assert.equal(old.error.code, "invalid_credentials");

  const twice = await client(s.baseUrl).auth.verifyOtp({ token_hash: tokenHash, type: "recovery" });
  assert.ok(twice.error instanceof AuthApiError);
  assert.equal(twice.error.status, 403);
  assert.equal(twice.error.code, "otp_expired");
});

Deno.test("supabase-js verifyOtp refuses a reset link older than an hour (injected clock)", async () => {
  await using s = await runningServer();
  const email = "slow@example.com";
  await signUp(s, email, "popcorn-matinee-42");
  assert.equal((await client(s.baseUrl).auth.resetPasswordForEmail(email)).error, null);
  const mail = await s.smtp.waitFor(1);
  const tokenHash = /token_hash=([\w-]+)/.exec(mail.text)![1];
  s.clock.shiftMs = 60 * 60_000 + 1000;
  const late = await client(s.baseUrl).auth.verifyOtp({ token_hash: tokenHash, type: "recovery" });
  assert.ok(late.error instanceof AuthApiError);
  assert.equal(late.error.status, 403);
  assert.equal(late.error.code, "otp_expired");
});

Deno.test("supabase-js updateUser changes the password and signOut({scope: 'others'}) ends the other devices", async () => {
  await using s = await runningServer();
  const email = "devices@example.com";
  const password = "popcorn-matinee-42";
  await signUp(s, email, password);
  const laptop = client(s.baseUrl);
  const phone = client(s.baseUrl);
  const tablet = client(s.baseUrl);
  const tokens: string[] = [];
  for (const device of [laptop, phone, tablet]) {
    const { data, error } = await device.auth.signInWithPassword({ email, password });
    assert.equal(error, null);
    tokens.push(data.session!.access_token);
  }

  const out = await laptop.auth.signOut({ scope: "others" });
  assert.equal(out.error, null);
  assert.equal(await watched(s.baseUrl, tokens[0]), 200, "this device stays signed in");
  assert.equal(await watched(s.baseUrl, tokens[1]), 401);
  assert.equal(await watched(s.baseUrl, tokens[2]), 401);

  const again = await phone.auth.signInWithPassword({ email, password });
  assert.equal(again.error, null);
  const changed = await laptop.auth.updateUser({ password: "drive-in-double-feature" });
  assert.equal(changed.error, null);
  assert.equal(await watched(s.baseUrl, tokens[0]), 200);
  assert.equal(await watched(s.baseUrl, again.data.session!.access_token), 401);
  const relogin = await client(s.baseUrl).auth.signInWithPassword({
    email,
    password: "drive-in-double-feature",
  });
  assert.equal(relogin.error, null);
});
