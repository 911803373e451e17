/**
 * Proven addresses and the identity provider (docs/oidc.md, "Proven addresses"): a verified
 * email joins only an account whose address was proven; an unverified one never satisfies an
 * invite's email; an identity is found by (issuer, subject) whatever its email, on both stores.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "./helpers/app.ts";
import { type Engine, ENGINES } from "./helpers/store.ts";
import { signIn, signUp } from "./helpers/auth_requests.ts";
import { type FakeSmtp, startFakeSmtp } from "./helpers/fake_smtp.ts";
import { dance, follow, SITE, siteClient } from "./helpers/oidc_dance.ts";
import { startIdp } from "./helpers/oidc_idp.ts";
import { textOf } from "./helpers/dom.ts";
import { islandsOf, sessionCookie } from "./helpers/web.ts";
import { enrolled, passwordSession } from "./helpers/mfa.ts";

const ADMIN = "proven-admin";

async function world(engine: Engine, env: Record<string, string> = {}) {
  const idp = await startIdp(`${SITE}/auth/v1/callback`);
  const smtp: FakeSmtp | undefined = env.SMTP_URL === "fake" ? await startFakeSmtp() : undefined;
  if (smtp) env = { ...env, SMTP_URL: smtp.url, MAIL_FROM: "movies@example.com" };
  const t = await testApp({
    engine,
    env: {
      SITE_URL: SITE,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_NAME: "Authentik",
      ADMIN_TOKEN: ADMIN,
      ...env,
    },
  });
  t.clock.set(Date.now());
  return {
    idp,
    t,
    smtp,
    async [Symbol.asyncDispose]() {
      await t[Symbol.asyncDispose]();
      await idp[Symbol.asyncDispose]();
      await smtp?.close();
    },
  };
}

/** A fresh address (a PostgreSQL test database outlives one run). */
const fresh = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}@example.com`;

const PASSWORD = "popcorn-matinee-42";

function refused(url: URL, pattern: RegExp) {
  assert.equal(url.searchParams.get("code"), null, "no code");
  assert.equal(url.searchParams.get("error"), "access_denied", `an error: ${url}`);
  assert.match(url.searchParams.get("error_description") ?? "", pattern);
}

async function identityOwner(t: TestApp, sub: string): Promise<string | null> {
  const [row] = await t.store.query<{ user_id: string }>(
    `select user_id::text as user_id from auth.identities where provider = 'oidc'
     and provider_id = $1`,
    [sub],
  );
  return row?.user_id ?? null;
}

async function usersWith(t: TestApp, email: string): Promise<number> {
  const [row] = await t.store.query<{ n: number }>(
    "select count(*)::int as n from auth.users where lower(email) = lower($1)",
    [email],
  );
  return row.n;
}

/** /account as the signed-in user sees it, with `search`. */
async function accountPage(t: TestApp, token: string, search = ""): Promise<string> {
  const res = await t.request(`/account${search}`, {
    headers: { cookie: sessionCookie(token) },
  });
  assert.equal(res.status, 200);
  return await res.text();
}

/**
 * Starts a link as supabase-js `linkIdentity` does (the query it sends, the user's token), and
 * returns the provider's address and the cookie that binds the link to this "browser".
 */
async function startLink(t: TestApp, token: string): Promise<{ url: string; cookie: string }> {
  const query = new URLSearchParams({
    provider: "oidc",
    redirect_to: `${SITE}/account`,
    skip_http_redirect: "true",
  });
  const res = await t.request(`/auth/v1/user/identities/authorize?${query}`, {
    headers: { authorization: `Bearer ${token}`, "x-supabase-api-version": "2024-01-01" },
  });
  assert.equal(res.status, 200);
  const setCookie = res.headers.get("set-cookie") ?? "";
  assert.match(setCookie, /HttpOnly/);
  assert.match(setCookie, /Path=\/auth\/v1\/callback/);
  assert.match(setCookie, /SameSite=Lax/);
  return { url: (await res.json()).url, cookie: setCookie.split(";")[0] };
}

async function invite(t: TestApp, email?: string): Promise<string> {
  const res = await t.request("/api/admin/invites", {
    method: "POST",
    headers: { "x-admin-token": ADMIN, "content-type": "application/json" },
    body: JSON.stringify(email ? { email } : {}),
  });
  assert.equal(res.status, 201);
  return (await res.json()).code;
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] the same subject with a new email at the identity provider signs in as the same user, even when another issuer has an identity of that subject`, async () => {
    await using w = await world(engine, { SIGNUP: "invite" });
    const sub = `sub-${crypto.randomUUID()}`;
    // Another issuer's identity of the same subject (another provider, or the one before a move).
    const other = crypto.randomUUID();
    await w.t.store.query(
      `insert into auth.users (id, aud, role, email, created_at, updated_at)
       values ($1, 'authenticated', 'authenticated', $2, now(), now())`,
      [other, fresh("other")],
    );
    await w.t.store.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider)
       values ($1, $2, $3::text::jsonb, 'oidc')`,
      [sub, other, JSON.stringify({ iss: "https://old-idp.example", sub })],
    );
    const first = fresh("nina");
    w.idp.accounts.set(sub, { email: first, email_verified: true, name: "Nina" });
    const sb = siteClient(w.t);
    const back = await dance(w.t, sb, { sub, inviteCode: await invite(w.t, first) });
    const { data, error } = await sb.auth.exchangeCodeForSession(back.searchParams.get("code")!);
    assert.equal(error, null);
    w.idp.accounts.set(sub, { email: fresh("nina-new"), email_verified: true });
    const sb2 = siteClient(w.t);
    const again = await dance(w.t, sb2, { sub });
    const code = again.searchParams.get("code");
    assert.ok(code, `signed in again, not ${again.searchParams.get("error_description")}`);
    const next = await sb2.auth.exchangeCodeForSession(code);
    assert.equal(next.data.user!.id, data.user!.id);
    // The other issuer's identity still belongs to its own user; the data are JSON objects.
    const owners = await w.t.store.query<{ user_id: string; iss: string }>(
      `select user_id::text as user_id, identity_data ->> 'iss' as iss from auth.identities
       where provider = 'oidc' and provider_id = $1 order by 2`,
      [sub],
    );
    assert.deepEqual(
      owners.map((o) => [o.iss, o.user_id]).sort(),
      [
        ["https://old-idp.example", other],
        [w.idp.issuer, data.user!.id],
      ].sort(),
    );
    const [user] = await w.t.store.query<{ name: string }>(
      "select raw_user_meta_data ->> 'name' as name from auth.users where id = $1",
      [data.user!.id],
    );
    assert.equal(user.name, "Nina");
  });
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a verified email never joins a password account whose address was not proven: the sign-in page says so and how to link instead`, async () => {
    await using w = await world(engine);
    const email = fresh("victim");
    // Someone signs up with an address that is not theirs: nothing proves it.
    const squatter = await signUp(w.t, email, PASSWORD);
    const sub = `owner-${crypto.randomUUID()}`;
    w.idp.accounts.set(sub, { email: email.toUpperCase(), email_verified: true });
    const back = await dance(w.t, siteClient(w.t), { sub });
    refused(back, /never proven, so your Authentik sign-in was not joined/);
    assert.match(back.searchParams.get("error_description")!, /sign in with your password/);
    assert.match(back.searchParams.get("error_description")!, /link Authentik .*\/account/);
    assert.equal(await identityOwner(w.t, sub), null, "no identity joined");
    assert.equal(await usersWith(w.t, email), 1, "no second account either");
    // The sign-in page shows those words (the service wrote them).
    const page = await (await w.t.request(back.pathname + back.search)).text();
    assert.match(page, /its address was never proven/);
    // The squatter's password still opens only the squatter's own, unjoined account.
    assert.equal((await signIn(w.t, email, PASSWORD)).user.id, squatter);
  });

  Deno.test(`[${engine}] with SMTP a password signup stays unconfirmed until its mailed link is opened; then a verified email joins it`, async () => {
    await using w = await world(engine, { SMTP_URL: "fake" });
    const email = fresh("owner");
    const id = await signUp(w.t, email, PASSWORD);
    const mail = await w.smtp!.waitFor(1);
    assert.deepEqual(mail.to, [email]);
    const link = new URL(/https?:\/\/\S+verify\S+/.exec(mail.text)![0]);
    const sub = `owner-${crypto.randomUUID()}`;
    w.idp.accounts.set(sub, { email, email_verified: true });
    refused(await dance(w.t, siteClient(w.t), { sub }), /never proven/);
    const opened = await w.t.request(link.pathname + link.search);
    assert.equal(opened.status, 303);
    assert.equal(opened.headers.get("location"), `${SITE}/account?notice=email-confirmed`);
    const sb = siteClient(w.t);
    const back = await dance(w.t, sb, { sub });
    const { data, error } = await sb.auth.exchangeCodeForSession(back.searchParams.get("code")!);
    assert.equal(error, null);
    assert.equal(data.user!.id, id);
    assert.equal(await identityOwner(w.t, sub), id);
  });

  Deno.test(`[${engine}] an invite made for one email is not redeemed by that email when the provider did not verify it`, async () => {
    await using w = await world(engine, { SIGNUP: "invite" });
    const email = fresh("invitee");
    const code = await invite(w.t, email);
    const sub = `invitee-${crypto.randomUUID()}`;
    w.idp.accounts.set(sub, { email, email_verified: false });
    refused(
      await dance(w.t, siteClient(w.t), { sub, inviteCode: code }),
      /invite code is not valid.*needs Authentik to have verified it/,
    );
    assert.equal(await usersWith(w.t, email), 0);
    const listed = await w.t.request("/api/admin/invites", { headers: { "x-admin-token": ADMIN } });
    const mine = (await listed.json()).invites.find((i: { code: string }) => i.code === code);
    assert.equal(mine.status, "pending", "the invite is still there for its owner");
    // An invite for nobody in particular still admits an unverified email (the code is the key).
    const open = await invite(w.t);
    const other = `loose-${crypto.randomUUID()}`;
    w.idp.accounts.set(other, { email: fresh("loose"), email_verified: false });
    assert.ok((await dance(w.t, siteClient(w.t), { sub: other, inviteCode: open }))
      .searchParams.get("code"));
    // The invitee's own provider, once it verified the address, redeems it.
    w.idp.accounts.set(sub, { email, email_verified: true });
    assert.ok(
      (await dance(w.t, siteClient(w.t), { sub, inviteCode: code })).searchParams.get("code"),
    );
    assert.equal(await usersWith(w.t, email), 1);
  });

  Deno.test(`[${engine}] a signed-in user links the provider from /account: the identity is theirs whatever its email, and signs them in next time`, async () => {
    await using w = await world(engine);
    const email = fresh("linker");
    const id = await signUp(w.t, email, PASSWORD);
    const sb = siteClient(w.t);
    const signedIn = await sb.auth.signInWithPassword({ email, password: PASSWORD });
    assert.equal(signedIn.error, null);
    const token = signedIn.data.session!.access_token;
    const before = await accountPage(w.t, token);
    assert.match(textOf(before), /Sign in with Authentik/);
    assert.deepEqual(
      islandsOf(before).find((i) => i.name === "LinkProvider")?.props,
      { name: "Authentik" },
    );
    const sub = `linker-${crypto.randomUUID()}`;
    const elsewhere = fresh("elsewhere");
    w.idp.accounts.set(sub, { email: elsewhere, email_verified: false });
    const { data, error } = await sb.auth.linkIdentity({
      provider: "oidc" as "google",
      options: { redirectTo: `${SITE}/account`, skipBrowserRedirect: true },
    });
    assert.equal(error, null, "supabase-js reads GoTrue's {url}");
    assert.ok(data.url!.startsWith(w.idp.issuer));
    // The same start, with the cookie a browser keeps (supabase-js's in-process fetch drops it).
    const link = await startLink(w.t, token);
    const back = await follow(w.t, link.url, { sub, siteCookie: link.cookie });
    assert.equal(back.pathname, "/account");
    assert.equal(back.searchParams.get("linked"), "oidc");
    assert.equal(back.searchParams.get("code"), null, "a link starts no session");
    assert.equal(await identityOwner(w.t, sub), id);
    // GoTrue's user lists it beside the email identity (supabase-js getUserIdentities).
    const listed = await sb.auth.getUserIdentities();
    assert.equal(listed.error, null);
    assert.deepEqual(
      listed.data!.identities.map((i) => [i.provider, i.id, i.identity_data?.email]),
      [["email", id, email], ["oidc", sub, elsewhere]],
    );
    const after = textOf(await accountPage(w.t, token, back.search));
    assert.match(after, /Authentik is linked: "Sign in with Authentik" opens this account/);
    assert.ok(after.includes(`Linked to ${elsewhere} at Authentik`));
    // Next time the provider alone signs in to this account.
    const next = siteClient(w.t);
    const again = await dance(w.t, next, { sub });
    const session = await next.auth.exchangeCodeForSession(again.searchParams.get("code")!);
    assert.equal(session.data.user!.id, id);
  });

  Deno.test(`[${engine}] linking a provider login that another account already has is refused, and the identity stays with its account`, async () => {
    await using w = await world(engine);
    const sub = `taken-${crypto.randomUUID()}`;
    w.idp.accounts.set(sub, { email: fresh("first"), email_verified: true });
    const first = siteClient(w.t);
    const made = await dance(w.t, first, { sub });
    const owner = (await first.auth.exchangeCodeForSession(made.searchParams.get("code")!)).data
      .user!.id;
    const email = fresh("second");
    await signUp(w.t, email, PASSWORD);
    const sb = siteClient(w.t);
    const signedIn = await sb.auth.signInWithPassword({ email, password: PASSWORD });
    const link = await startLink(w.t, signedIn.data.session!.access_token);
    const back = await follow(w.t, link.url, { sub, siteCookie: link.cookie });
    assert.equal(back.pathname, "/account");
    refused(back, /already linked to another account/);
    assert.equal(await identityOwner(w.t, sub), owner);
    const page = textOf(
      await accountPage(w.t, signedIn.data.session!.access_token, back.search),
    );
    assert.match(page, /This Authentik login is already linked to another account here/);
  });
}

Deno.test("GET /auth/v1/user/identities/authorize needs the user's token (401 no_authorization) and the configured provider (400)", async () => {
  await using w = await world("embedded");
  const none = await w.t.request("/auth/v1/user/identities/authorize?provider=oidc");
  assert.equal(none.status, 401);
  assert.equal((await none.json()).error_code, "no_authorization");
  const email = fresh("asker");
  await signUp(w.t, email, PASSWORD);
  const { access_token } = await signIn(w.t, email, PASSWORD);
  const other = await w.t.request("/auth/v1/user/identities/authorize?provider=github", {
    headers: { authorization: `Bearer ${access_token}` },
  });
  assert.equal(other.status, 400);
  assert.equal((await other.json()).error_code, "validation_failed");
});

Deno.test("linking the provider is a change of the user: a session owing its second factor gets 403 mfa_required, the aal2 one its address", async () => {
  await using w = await world("embedded");
  const { email, password, token } = await passwordSession(w.t, fresh("guarded"));
  const { aal2 } = await enrolled(w.t, token);
  const aal1 = (await signIn(w.t, email, password)).access_token;
  const link = (bearer: string) =>
    w.t.request("/auth/v1/user/identities/authorize?provider=oidc&skip_http_redirect=true", {
      headers: { authorization: `Bearer ${bearer}`, "x-supabase-api-version": "2024-01-01" },
    });
  const owed = await link(aal1);
  assert.equal(owed.status, 403);
  assert.equal((await owed.json()).code, "mfa_required");
  const ok = await link(aal2.access_token);
  assert.equal(ok.status, 200);
  assert.ok((await ok.json()).url.startsWith(w.idp.issuer));
});

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a link's provider address opened in another browser (without the starting one's cookie) links nothing`, async () => {
    await using w = await world(engine);
    // Someone starts a link for their own account and hands the provider's address to a victim.
    const email = fresh("schemer");
    await signUp(w.t, email, PASSWORD);
    const { access_token } = await signIn(w.t, email, PASSWORD);
    const link = await startLink(w.t, access_token);
    const victim = `victim-${crypto.randomUUID()}`;
    w.idp.accounts.set(victim, { email: fresh("victim"), email_verified: true });
    refused(await follow(w.t, link.url, { sub: victim }), /not started in this browser/);
    const forged = await follow(w.t, (await startLink(w.t, access_token)).url, {
      sub: victim,
      siteCookie: "movies-oidc-link=guessed",
    });
    refused(forged, /not started in this browser/);
    assert.equal(await identityOwner(w.t, victim), null);
  });

  Deno.test(`[${engine}] a link whose session ended meanwhile (signed out) links nothing`, async () => {
    await using w = await world(engine);
    const email = fresh("leaver");
    await signUp(w.t, email, PASSWORD);
    const { access_token } = await signIn(w.t, email, PASSWORD);
    const link = await startLink(w.t, access_token);
    const out = await w.t.request("/auth/v1/logout?scope=global", {
      method: "POST",
      headers: { authorization: `Bearer ${access_token}` },
    });
    assert.equal(out.status, 204);
    const sub = `leaver-${crypto.randomUUID()}`;
    w.idp.accounts.set(sub, { email, email_verified: true });
    refused(
      await follow(w.t, link.url, { sub, siteCookie: link.cookie }),
      /session this link was started from has ended/,
    );
    assert.equal(await identityOwner(w.t, sub), null);
  });
}
