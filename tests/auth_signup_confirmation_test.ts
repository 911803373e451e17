/**
 * Proving a password signup's address (docs/identity.md, "Proven addresses"): with SMTP the
 * signup mails GoTrue's "confirm signup" link; `/auth/v1/verify` with `type=signup` spends it
 * once within 24 hours; without SMTP nothing is mailed or logged and the address stays unproven;
 * an unconfirmed account signs in and works meanwhile.
 */
import assert from "node:assert/strict";
import { createClient } from "@supabase/supabase-js";
import { FakeClock } from "@/lib/core/clock.ts";
import { resetMailsSettled } from "@/lib/identity/auth/password_reset.ts";
import { type TestApp, testApp } from "./helpers/app.ts";
import { signIn, signUp, VERSIONED } from "./helpers/auth_requests.ts";
import { type FakeSmtp, startFakeSmtp } from "./helpers/fake_smtp.ts";
import { type Engine, ENGINES } from "./helpers/store.ts";

const SITE = "http://movies.test";
const PASSWORD = "popcorn-matinee-42";
const DAY_MS = 24 * 60 * 60_000;

/** A fresh address (a PostgreSQL test database outlives one run). */
const fresh = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}@example.com`;

async function world(options: { engine?: Engine; smtp?: boolean } = {}) {
  const smtp = options.smtp === false ? undefined : await startFakeSmtp();
  const clock = new FakeClock(Date.parse("2026-12-06T08:00:00Z"));
  const t = await testApp({
    clock,
    engine: options.engine,
    env: {
      SITE_URL: SITE,
      ...(smtp ? { SMTP_URL: smtp.url, MAIL_FROM: "Movies <no-reply@movies.test>" } : {}),
    },
  });
  return {
    t,
    smtp,
    clock,
    async [Symbol.asyncDispose]() {
      await resetMailsSettled(t.deps);
      await t[Symbol.asyncDispose]();
      await smtp?.close();
    },
  };
}

async function confirmedAt(t: TestApp, id: string): Promise<Date | null> {
  const [row] = await t.store.query<{ at: Date | null }>(
    "select email_confirmed_at as at from auth.users where id = $1",
    [id],
  );
  return row.at;
}

/** The link of the `n`th mail, checked to be the same in its text and HTML parts. */
async function mailedLink(smtp: FakeSmtp, n: number): Promise<URL> {
  const mail = await smtp.waitFor(n);
  const match = /http:\/\/movies\.test\/auth\/v1\/verify\?\S+/.exec(mail.text);
  assert.ok(match, `no confirmation link in ${mail.text}`);
  assert.ok(mail.html.includes(match[0].replaceAll("&", "&amp;")), "the HTML part has it too");
  return new URL(match[0]);
}

function open(t: TestApp, link: URL) {
  return t.request(link.pathname + link.search);
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] with SMTP, signup mails a confirmation link, the account works meanwhile; opening the link proves the address once, and a second time says the link is spent`, async () => {
    await using w = await world({ engine });
    const email = fresh("new");
    const id = await signUp(w.t, email, PASSWORD);
    assert.equal(await confirmedAt(w.t, id), null);
    const mail = await w.smtp!.waitFor(1);
    assert.deepEqual(mail.to, [email]);
    assert.match(mail.raw, /Subject: Confirm your email address on movies\.test/);
    assert.match(mail.text, /If you did not create it, ignore this mail/);
    const link = await mailedLink(w.smtp!, 1);
    // Meanwhile the account signs in and works as any other (decided: only joining waits).
    const early = await signIn(w.t, email, PASSWORD);
    assert.equal(early.user.email_confirmed_at, undefined);
    const list = await w.t.request("/api/watched", {
      headers: { authorization: `Bearer ${early.access_token}` },
    });
    assert.equal(list.status, 200);
    await list.body?.cancel();
    assert.equal(link.searchParams.get("type"), "signup");
    assert.equal(link.searchParams.get("redirect_to"), `${SITE}/account`);
    const first = await open(w.t, link);
    assert.equal(first.status, 303);
    assert.equal(first.headers.get("location"), `${SITE}/account?notice=email-confirmed`);
    assert.equal(first.headers.get("cache-control"), "no-store");
    // The link signs nobody in: no session travels in the redirect, none was started.
    assert.doesNotMatch(first.headers.get("location")!, /access_token|#/);
    const [sessions] = await w.t.store.query<{ n: number }>(
      "select count(*)::int as n from auth.sessions where user_id = $1",
      [id],
    );
    assert.equal(sessions.n, 1, "only the sign-in's own session");
    assert.equal((await confirmedAt(w.t, id))?.getTime(), w.clock.now());
    const again = await open(w.t, link);
    assert.equal(again.headers.get("location"), `${SITE}/account?notice=email-link-invalid`);
    // The user object says so as GoTrue does.
    const session = await signIn(w.t, email, PASSWORD);
    assert.equal(session.user.email_confirmed_at, new Date(w.clock.now()).toISOString());
    assert.equal(session.user.identities[0].identity_data.email_verified, true);
  });

  Deno.test(`[${engine}] a confirmation link works until 24 hours after the signup and not at 24 hours`, async () => {
    await using w = await world({ engine });
    const early = await signUp(w.t, fresh("early"), PASSWORD);
    const earlyLink = await mailedLink(w.smtp!, 1);
    const late = await signUp(w.t, fresh("late"), PASSWORD);
    const lateLink = await mailedLink(w.smtp!, 2);
    w.clock.advance(DAY_MS - 1);
    assert.match((await open(w.t, earlyLink)).headers.get("location")!, /email-confirmed/);
    assert.ok(await confirmedAt(w.t, early));
    w.clock.advance(1);
    assert.match((await open(w.t, lateLink)).headers.get("location")!, /email-link-invalid/);
    assert.equal(await confirmedAt(w.t, late), null);
  });

  Deno.test(`[${engine}] POST /auth/v1/verify type=signup (supabase-js verifyOtp) proves the address and answers GoTrue's session; a spent token is 403 otp_expired`, async () => {
    await using w = await world({ engine });
    const email = fresh("otp");
    const id = await signUp(w.t, email, PASSWORD);
    const tokenHash = (await mailedLink(w.smtp!, 1)).searchParams.get("token_hash")!;
    const sb = createClient(SITE, "anon", {
      auth: { persistSession: false, autoRefreshToken: false },
      global: { fetch: async (input, init) => await w.t.app.fetch(new Request(input, init)) },
    });
    const { data, error } = await sb.auth.verifyOtp({ token_hash: tokenHash, type: "signup" });
    assert.equal(error, null);
    assert.equal(data.user!.id, id);
    assert.ok(data.user!.email_confirmed_at);
    const claims = JSON.parse(atob(data.session!.access_token.split(".")[1]));
    assert.equal(claims.amr[0].method, "email/signup");
    const spent = await w.t.request("/auth/v1/verify", {
      method: "POST",
      headers: VERSIONED,
      body: JSON.stringify({ type: "signup", token_hash: tokenHash }),
    });
    assert.equal(spent.status, 403);
    assert.equal((await spent.json()).code, "otp_expired");
  });
}

Deno.test("without SMTP, signup mails nothing and logs no link: the address stays unproven, and the account signs in and works", async () => {
  await using w = await world({ smtp: false });
  const email = fresh("quiet");
  const id = await signUp(w.t, email, PASSWORD);
  assert.equal(await confirmedAt(w.t, id), null);
  const [tokens] = await w.t.store.query<{ n: number }>(
    "select count(*)::int as n from public.signup_confirmations",
  );
  assert.equal(tokens.n, 0);
  assert.ok(!JSON.stringify(w.t.logs).includes("/auth/v1/verify"), "no link in the logs");
  const session = await signIn(w.t, email, PASSWORD);
  assert.equal(session.user.email_confirmed_at, undefined);
  const list = await w.t.request("/api/watched", {
    headers: { authorization: `Bearer ${session.access_token}` },
  });
  assert.equal(list.status, 200);
  await list.body?.cancel();
});

Deno.test("a confirmation mail that cannot be sent leaves the signup standing, unconfirmed, with an error logged without the link", async () => {
  const smtp = await startFakeSmtp();
  await smtp.close();
  await using t = await testApp({
    env: { SITE_URL: SITE, SMTP_URL: smtp.url, MAIL_FROM: "no-reply@movies.test" },
  });
  const id = await signUp(t, fresh("unsent"), PASSWORD);
  assert.equal(await confirmedAt(t, id), null);
  const line = t.logs.find((l) => l.event === "signup_confirmation_mail_failed");
  assert.ok(line, "the failure is logged");
  assert.ok(!JSON.stringify(t.logs).includes("token_hash"), "never the link");
});

Deno.test("POST /api/auth/signup says when it mailed the confirmation link (user.confirmationSentAt), and nothing when no mail went (no SMTP, or the mail failed)", async () => {
  const answer = async (t: TestApp, email: string) => {
    const res = await t.request("/api/auth/signup", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    assert.equal(res.status, 201);
    const body = await res.json();
    return { ...body, user: { ...body.user, id: typeof body.user.id } };
  };
  {
    await using w = await world();
    const email = fresh("mailed");
    assert.deepEqual(await answer(w.t, email), {
      success: true,
      user: { id: "string", email, confirmationSentAt: "2026-12-06T08:00:00.000Z" },
    });
    await w.smtp!.waitFor(1);
  }
  {
    await using w = await world({ smtp: false });
    const email = fresh("unmailed");
    assert.deepEqual(await answer(w.t, email), { success: true, user: { id: "string", email } });
  }
  const smtp = await startFakeSmtp();
  await smtp.close();
  await using t = await testApp({
    env: { SITE_URL: SITE, SMTP_URL: smtp.url, MAIL_FROM: "no-reply@movies.test" },
  });
  const email = fresh("failed");
  assert.deepEqual(await answer(t, email), { success: true, user: { id: "string", email } });
});

Deno.test("a GET confirmation link with a foreign redirect_to or no token still lands on this site", async () => {
  await using w = await world({ smtp: false });
  const foreign = await w.t.request(
    "/auth/v1/verify?type=signup&token_hash=nope&redirect_to=https%3A%2F%2Fevil.example%2F",
  );
  assert.equal(foreign.status, 303);
  assert.equal(foreign.headers.get("location"), `${SITE}/account?notice=email-link-invalid`);
  const bare = await w.t.request("/auth/v1/verify?type=signup");
  assert.equal(bare.headers.get("location"), `${SITE}/account?notice=email-link-invalid`);
  // Where they land says what happened, signed in or not.
  const invalid = await (await w.t.request("/account?notice=email-link-invalid")).text();
  assert.match(invalid, /That confirmation link has expired or was used already\./);
  const done = await (await w.t.request("/account?notice=email-confirmed")).text();
  assert.match(done, /Your email address is confirmed\./);
});

Deno.test("a password reset opened from its mail proves the address too (as GoTrue's recovery confirms)", async () => {
  await using w = await world();
  const email = fresh("resetter");
  const id = await signUp(w.t, email, PASSWORD);
  await w.smtp!.waitFor(1);
  await w.t.request("/auth/v1/recover", {
    method: "POST",
    headers: VERSIONED,
    body: JSON.stringify({ email }),
  });
  await resetMailsSettled(w.t.deps);
  const mail = await w.smtp!.waitFor(2);
  const token = /token_hash=([A-Za-z0-9_-]+)&type=recovery/.exec(mail.text)![1];
  const res = await w.t.request("/auth/v1/verify", {
    method: "POST",
    headers: VERSIONED,
    body: JSON.stringify({ type: "recovery", token_hash: token }),
  });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  assert.ok(await confirmedAt(w.t, id));
});
