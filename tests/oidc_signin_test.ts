/**
 * Sign-in with the instance's OpenID Connect provider, against a real provider (oidc-provider)
 * and supabase-js's PKCE flow: accounts made, linked and refused per mode, and every forged or
 * misdirected answer refused with no session.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "./helpers/app.ts";
import { signUp, signup, token } from "./helpers/auth_requests.ts";
import { createUser } from "./helpers/users.ts";
import { dance, forge, SITE, siteClient, tamperingFetch } from "./helpers/oidc_dance.ts";
import { startIdp } from "./helpers/oidc_idp.ts";

async function world(env: Record<string, string> = {}) {
  const idp = await startIdp(`${SITE}/auth/v1/callback`);
  const hook = tamperingFetch();
  const t = await testApp({
    fetch: hook.fetch,
    env: {
      SITE_URL: SITE,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_NAME: "Authentik",
      ADMIN_TOKEN: "oidc-admin",
      ...env,
    },
  });
  // The provider's clock is the wall clock; the app's follows it for the ID token's times.
  t.clock.set(Date.now());
  return {
    idp,
    t,
    hook,
    async [Symbol.asyncDispose]() {
      await t[Symbol.asyncDispose]();
      await idp[Symbol.asyncDispose]();
    },
  };
}

async function userCount(t: TestApp): Promise<number> {
  const [row] = await t.store.query<{ n: number }>("select count(*)::int as n from auth.users");
  return row.n;
}

function refused(url: URL, pattern: RegExp) {
  assert.equal(url.searchParams.get("code"), null, "no code");
  assert.ok(url.searchParams.get("error"), `an error: ${url}`);
  assert.match(url.searchParams.get("error_description") ?? "", pattern);
}

Deno.test("the full dance: a new account under SIGNUP=open, a session through grant_type=pkce, and the second sign-in is the same user", async () => {
  await using w = await world();
  w.idp.accounts.set("alice-sub", {
    email: "Alice@Example.com",
    email_verified: true,
    name: "Alice",
  });
  const sb = siteClient(w.t);
  const back = await dance(w.t, sb, { sub: "alice-sub" });
  assert.equal(back.pathname, "/login");
  assert.equal(back.searchParams.get("next"), "/watched");
  const code = back.searchParams.get("code")!;
  const { data, error } = await sb.auth.exchangeCodeForSession(code);
  assert.equal(error, null);
  assert.equal(data.user!.email, "alice@example.com");
  const claims = JSON.parse(atob(data.session!.access_token.split(".")[1]));
  assert.equal(claims.amr[0].method, "oauth");
  assert.equal(claims.aal, "aal1");
  // The token works on the API.
  const list = await w.t.request("/api/watched", {
    headers: { authorization: `Bearer ${data.session!.access_token}` },
  });
  assert.equal(list.status, 200);
  await list.body?.cancel();
  const [identity] = await w.t.store.query<{ user_id: string; iss: string }>(
    `select user_id::text as user_id, identity_data ->> 'iss' as iss from auth.identities
     where provider = 'oidc' and provider_id = 'alice-sub'`,
  );
  assert.equal(identity.user_id, data.user!.id);
  assert.equal(identity.iss, w.idp.issuer);
  // A code is used once.
  const again = await token(w.t, "pkce", { auth_code: code, code_verifier: "x".repeat(43) });
  assert.equal(again.status, 404);
  assert.equal((await again.json()).code, "flow_state_not_found");

  const sb2 = siteClient(w.t);
  const second = await dance(w.t, sb2, { sub: "alice-sub" });
  const next = await sb2.auth.exchangeCodeForSession(second.searchParams.get("code")!);
  assert.equal(next.data.user!.id, data.user!.id);
  assert.equal(await userCount(w.t), 1);
});

Deno.test("a verified email joins the existing password account once its address is proven; an unverified one is refused with no session", async () => {
  await using w = await world();
  const id = await signUp(w.t, "bob@example.com", "popcorn-matinee-42");
  w.idp.accounts.set("bob-unverified", { email: "bob@example.com", email_verified: false });
  const no = await dance(w.t, siteClient(w.t), { sub: "bob-unverified" });
  refused(no, /has not verified the email/);
  w.idp.accounts.set("bob-sub", { email: "BOB@example.com", email_verified: true });
  // Without SMTP a password signup's address is never proven, so nothing joins it
  // (tests/oidc_proven_email_test.ts proves it by the mailed link).
  refused(await dance(w.t, siteClient(w.t), { sub: "bob-sub" }), /never proven/);
  await w.t.store.query("update auth.users set email_confirmed_at = now() where id = $1", [id]);
  const sb = siteClient(w.t);
  const yes = await dance(w.t, sb, { sub: "bob-sub" });
  const { data } = await sb.auth.exchangeCodeForSession(yes.searchParams.get("code")!);
  assert.equal(data.user!.id, id);
  assert.equal(await userCount(w.t), 1);
});

Deno.test("SIGNUP=closed refuses a new account from the provider; SIGNUP=invite makes one only with an invite", async () => {
  {
    await using w = await world({ SIGNUP: "closed" });
    w.idp.accounts.set("carol", { email: "carol@example.com", email_verified: true });
    refused(await dance(w.t, siteClient(w.t), { sub: "carol" }), /not taking new accounts/);
    assert.equal(await userCount(w.t), 0);
  }
  {
    await using w = await world({ SIGNUP: "invite" });
    w.idp.accounts.set("dan", { email: "dan@example.com", email_verified: true });
    refused(await dance(w.t, siteClient(w.t), { sub: "dan" }), /by invitation/);
    const made = await w.t.request("/api/admin/invites", {
      method: "POST",
      headers: { "x-admin-token": "oidc-admin", "content-type": "application/json" },
      body: JSON.stringify({ email: "dan@example.com" }),
    });
    const { code } = await made.json();
    const sb = siteClient(w.t);
    const back = await dance(w.t, sb, { sub: "dan", inviteCode: code });
    const { data, error } = await sb.auth.exchangeCodeForSession(back.searchParams.get("code")!);
    assert.equal(error, null);
    assert.equal(data.user!.email, "dan@example.com");
  }
});

Deno.test("a tampered state is refused: back on the sign-in page with an error and no code", async () => {
  await using w = await world();
  w.idp.accounts.set("eve", { email: "eve@example.com", email_verified: true });
  const back = await dance(w.t, siteClient(w.t), {
    sub: "eve",
    tamperReturn: (url) => url.searchParams.set("state", url.searchParams.get("state") + "x"),
  });
  assert.equal(back.pathname, "/login");
  refused(back, /expired or was not started here/);
  assert.equal(await userCount(w.t), 0);
});

Deno.test("an ID token with a wrong nonce, another key's signature, or past its expiry is refused with no session", async () => {
  await using w = await world();
  w.idp.accounts.set("mallory", { email: "mallory@example.com", email_verified: true });
  const own = { jwk: w.idp.privateJwk };
  const cases: [string, (idToken: string) => Promise<string>, RegExp][] = [
    ["wrong nonce", (t) => forge(t, { nonce: "not-the-nonce" }, own), /could not be verified/],
    ["foreign key", (t) => forge(t, {}, "foreign"), /could not be verified/],
    [
      "expired",
      (t) =>
        forge(t, {
          iat: Math.floor(Date.now() / 1000) - 7200,
          exp: Math.floor(Date.now() / 1000) - 3600,
        }, own),
      /expired/,
    ],
    ["other audience", (t) => forge(t, { aud: "someone-else" }, own), /could not be verified/],
  ];
  for (const [label, replace, pattern] of cases) {
    w.hook.replaceIdToken = replace;
    const back = await dance(w.t, siteClient(w.t), { sub: "mallory" });
    refused(back, pattern);
    assert.equal(await userCount(w.t), 0, label);
  }
  // The same provider's untampered token is accepted: the refusals were the forgeries'.
  w.hook.replaceIdToken = null;
  assert.ok((await dance(w.t, siteClient(w.t), { sub: "mallory" })).searchParams.get("code"));
});

Deno.test("a foreign redirect_to is refused before the provider is visited; an allow-listed one is followed", async () => {
  await using w = await world({ AUTH_REDIRECT_ALLOW: "https://app.movies.example/done" });
  w.idp.accounts.set("frank", { email: "frank@example.com", email_verified: true });
  const evil = await dance(w.t, siteClient(w.t), {
    sub: "frank",
    redirectTo: "https://evil.example/steal",
  });
  assert.equal(evil.origin, SITE);
  refused(evil, /does not trust/);
  const sibling = await dance(w.t, siteClient(w.t), {
    sub: "frank",
    redirectTo: "https://app.movies.example/donehere",
  });
  refused(sibling, /does not trust/);
  const res = await w.t.request(
    `/auth/v1/authorize?provider=oidc&redirect_to=${
      encodeURIComponent("https://app.movies.example/done/x")
    }&code_challenge=abc&code_challenge_method=s256`,
  );
  assert.equal(res.status, 302);
  assert.ok(res.headers.get("location")!.startsWith(w.idp.issuer));
});

Deno.test("the PKCE exchange refuses a wrong code verifier with 403 bad_code_verifier and starts no session", async () => {
  await using w = await world();
  w.idp.accounts.set("gina", { email: "gina@example.com", email_verified: true });
  const back = await dance(w.t, siteClient(w.t), { sub: "gina" });
  const code = back.searchParams.get("code")!;
  const wrong = await token(w.t, "pkce", { auth_code: code, code_verifier: "y".repeat(43) });
  assert.equal(wrong.status, 403);
  assert.equal((await wrong.json()).code, "bad_code_verifier");
  const [row] = await w.t.store.query<{ n: number }>(
    "select count(*)::int as n from auth.sessions",
  );
  assert.equal(row.n, 0);
});

Deno.test("PASSWORD_LOGIN=false turns password sign-in off (422 email_provider_disabled); the provider still signs in", async () => {
  await using w = await world({ PASSWORD_LOGIN: "false" });
  // Password signup is off too; the account is one made before the switch.
  const before = await signup(w.t, { email: "x@example.com", password: "popcorn-matinee-42" });
  assert.equal(before.status, 403);
  assert.equal((await before.json()).code, "signup_disabled");
  const hal = await createUser(w.t.deps, { email: "hal@example.com" });
  // A proven address (a mailed link opened before the switch): the provider joins it.
  await w.t.store.query("update auth.users set email_confirmed_at = now() where id = $1", [
    hal.id,
  ]);
  const res = await token(w.t, "password", {
    email: "hal@example.com",
    password: "popcorn-matinee-42",
  });
  assert.equal(res.status, 422);
  assert.equal((await res.json()).code, "email_provider_disabled");
  w.idp.accounts.set("hal", { email: "hal@example.com", email_verified: true });
  assert.ok((await dance(w.t, siteClient(w.t), { sub: "hal" })).searchParams.get("code"));
});

Deno.test("ID tokens, codes and client secrets of the sign-in never reach the logs", async () => {
  await using w = await world();
  w.idp.accounts.set("ivy", { email: "ivy@example.com", email_verified: true });
  const sb = siteClient(w.t);
  const back = await dance(w.t, sb, { sub: "ivy" });
  const code = back.searchParams.get("code")!;
  const { data } = await sb.auth.exchangeCodeForSession(code);
  const text = JSON.stringify(w.t.logs);
  assert.ok(w.t.logs.length > 0);
  for (const secret of [code, w.hook.idTokens[0], w.idp.clientSecret, data.session!.access_token]) {
    assert.ok(secret && !text.includes(secret), "a secret was logged");
  }
});
