/**
 * Two-factor codes guard the data (docs/identity.md): with a verified factor, an aal1 session
 * reaches only the code step, its own user record and sign-out; every other route that needs a
 * signed-in user is 403 `mfa_required`, and pages send the visitor to the code step.
 */
import assert from "node:assert/strict";
import { SignJWT } from "jose";
import { FakeClock } from "@/lib/core/clock.ts";
import { type TestApp, testApp } from "./helpers/app.ts";
import { signIn, VERSIONED } from "./helpers/auth_requests.ts";
import { startFakeSupabase } from "./helpers/fake_supabase.ts";
import { answer, codeAt, enrolled, gotrue, passwordSession } from "./helpers/mfa.ts";
import { ENGINES } from "./helpers/store.ts";
import { islandsOf, sessionCookie } from "./helpers/web.ts";

/** What a request with `token` answers: the status and, for a refusal, the problem's code. */
async function outcome(t: TestApp, path: string, token: string, init: RequestInit = {}) {
  const res = await t.request(path, {
    ...init,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      ...init.headers,
    },
  });
  const body = await res.json().catch(() => null);
  return res.status < 300 ? `${res.status}` : `${res.status} ${body?.code ?? body?.error_code}`;
}

// The user's data, read and written: each route an aal1 token of a user with a factor reached.
const DATA_ROUTES: [string, RequestInit][] = [
  ["/api/watched", {}],
  ["/api/mylist?limit=5", {}],
  ["/api/watched", { method: "POST", body: JSON.stringify({ catalogId: 603 }) }],
  ["/api/diary", {}],
  ["/api/export", {}],
  ["/api/lists", {}],
  ["/api/me/profile", { method: "PUT", body: JSON.stringify({ public: true }) }],
  ["/api/recommend", {}],
  ["/api/recommend/quota", {}],
  ["/api/stats", {}],
  ["/api/tokens", {}],
  ["/api/me/connections", {}],
  // Approving an app's sign-in hands out the user's data too.
  ["/api/trakt/activate?code=ABCD2345", {}],
  [
    "/api/trakt/activate",
    { method: "POST", body: JSON.stringify({ code: "ABCD2345", approve: true }) },
  ],
  ["/api/trakt/apps", {}],
  ["/api/trakt/authorizations", {}],
];

for (const engine of ENGINES) {
  Deno.test(`[${engine}] with a verified factor, a password-only session reads and writes none of the user's data: 403 mfa_required until the code`, async () => {
    await using t = await testApp({ engine });
    const { token, email, password } = await passwordSession(
      t,
      `guarded-${crypto.randomUUID().slice(0, 8)}@example.com`,
    );
    const { factorId, secret } = await enrolled(t, token);
    t.clock.advance(60_000);
    const aal1 = (await signIn(t, email, password)).access_token as string;
    for (const [path, init] of DATA_ROUTES) {
      assert.equal(await outcome(t, path, aal1, init), "403 mfa_required", path);
    }
    // What it still reaches: its user record, the code step (and, below, sign-out).
    const user = await gotrue(t, "/user", aal1, { method: "GET" });
    assert.equal(user.status, 200);
    assert.equal((await user.json()).factors[0].status, "verified");
    const meta = await gotrue(t, "/user", aal1, { method: "PUT", body: { data: { a: 1 } } });
    assert.equal(meta.status, 403);
    assert.equal((await meta.json()).code, "mfa_required");
    const raised = await answer(t, aal1, factorId, codeAt(secret, t.clock.now()));
    assert.equal(raised.status, 200);
    const aal2 = (await raised.json()).access_token as string;
    for (const path of ["/api/watched", "/api/mylist?limit=5", "/api/diary", "/api/lists"]) {
      assert.equal(await outcome(t, path, aal2), "200", path);
    }
    assert.equal(await outcome(t, "/api/recommend/quota", aal2), "200");
    const out = await t.request("/auth/v1/logout?scope=local", {
      method: "POST",
      headers: { ...VERSIONED, authorization: `Bearer ${aal2}` },
    });
    assert.equal(out.status, 204);
  });

  Deno.test(`[${engine}] a personal token keeps working for a user with a verified factor: it counts as aal2`, async () => {
    await using t = await testApp({ engine });
    const { token } = await passwordSession(
      t,
      `apps-${crypto.randomUUID().slice(0, 8)}@example.com`,
    );
    const { aal2 } = await enrolled(t, token);
    const made = await t.request("/api/tokens", {
      method: "POST",
      headers: {
        authorization: `Bearer ${aal2.access_token}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ name: "scrobbler", scope: "read" }),
    });
    assert.equal(made.status, 201);
    const { token: personal } = await made.json();
    assert.equal(await outcome(t, "/api/watched", personal), "200");
    assert.equal(await outcome(t, "/api/diary", personal), "200");
  });
}

Deno.test("a user without a factor is not asked for a code: the aal1 list read is still one query", async () => {
  await using t = await testApp();
  const { token } = await passwordSession(t);
  // A list with a film: rows prove the session live (an empty answer takes a query of its own).
  const init = { method: "POST", body: JSON.stringify({ catalogId: 603 }) };
  assert.equal(await outcome(t, "/api/watched", token, init), "200");
  const before = t.store.stats.queries;
  assert.equal(await outcome(t, "/api/watched", token), "200");
  assert.equal(t.store.stats.queries - before, 1);
});

Deno.test("pages that need an account send a session owing its code to the code step; open pages stay open", async () => {
  await using t = await testApp();
  const { token, email, password } = await passwordSession(t);
  await enrolled(t, token);
  const aal1 = (await signIn(t, email, password)).access_token as string;
  const cookie = { cookie: sessionCookie(aal1, email) };
  for (const path of ["/watched", "/account", "/diary?year=2026", "/lists"]) {
    const res = await t.request(path, { headers: cookie });
    assert.equal(res.status, 303, path);
    assert.equal(res.headers.get("location"), `/login?next=${encodeURIComponent(path)}`, path);
    await res.body?.cancel();
  }
  const login = await t.request("/login?next=%2Fwatched", { headers: cookie });
  assert.equal(login.status, 200);
  const form = islandsOf(await login.text()).find((i) => i.name === "AuthForm");
  assert.deepEqual([form?.props.codeStep, form?.props.next], [true, "/watched"]);
  // Not a stale session either: the browser must not refresh it and sign it out.
  const open = await t.request("/search", { headers: cookie });
  assert.equal(open.status, 200);
  assert.doesNotMatch(await open.text(), /SessionRefresh/);
});

Deno.test("Supabase mode: an aal1 token of a user with a verified factor is 403 mfa_required, an aal2 one reads", async () => {
  const clock = new FakeClock();
  await using fake = await startFakeSupabase({ clock });
  await using t = await testApp({
    clock,
    env: { SUPABASE_URL: fake.url, SUPABASE_ANON_KEY: fake.anonKey },
  });
  const user = { id: crypto.randomUUID(), email: "sb-mfa@example.com" };
  fake.users.set(user.id, user);
  assert.equal(await outcome(t, "/api/watched", await fake.sign(user)), "200");
  // The factor lives in the project's auth.mfa_factors, which DATABASE_URL points at.
  await t.store.query(`insert into auth.users (id, email) values ($1, $2)`, [user.id, user.email]);
  await t.store.query(
    `insert into auth.mfa_factors (id, user_id, factor_type, status, created_at, updated_at)
     values ($1, $2, 'totp', 'verified', now(), now())`,
    [crypto.randomUUID(), user.id],
  );
  assert.equal(await outcome(t, "/api/watched", await fake.sign(user)), "403 mfa_required");
  // A token Supabase raised to aal2 (a legacy HS256 one: Supabase itself vouches for it).
  const iat = Math.floor(clock.now() / 1000);
  const aal2 = await new SignJWT({ email: user.email, role: "authenticated", aal: "aal2" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(user.id)
    .setAudience("authenticated")
    .setIssuer(`${fake.url}/auth/v1`)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 3600)
    .sign(new TextEncoder().encode(fake.legacySecret));
  assert.equal(await outcome(t, "/api/watched", aal2), "200");
});
