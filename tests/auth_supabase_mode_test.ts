/**
 * Supabase mode (SUPABASE_URL set) against a fake of the project's JWKS, admin user creation
 * and /user endpoints, shaped as Supabase Auth answers.
 */
import assert from "node:assert/strict";
import { SignJWT } from "jose";
import { FakeClock } from "../lib/core/clock.ts";
import { issueAccessToken } from "./helpers/tokens.ts";
import { type TestApp, testApp } from "./helpers/app.ts";
import { type FakeSupabase, startFakeSupabase } from "./helpers/fake_supabase.ts";

function supabaseEnv(fake: FakeSupabase, withServiceKey = true): Record<string, string> {
  return {
    SUPABASE_URL: fake.url,
    SUPABASE_ANON_KEY: fake.anonKey,
    ...(withServiceKey ? { SUPABASE_SERVICE_ROLE_KEY: fake.serviceRoleKey } : {}),
  };
}

async function status(t: TestApp, path: string, token: string): Promise<number> {
  const res = await t.request(path, { headers: { authorization: `Bearer ${token}` } });
  await res.body?.cancel();
  return res.status;
}

const jwksCalls = (fake: FakeSupabase) =>
  fake.requests.filter((r) => r.path === "/auth/v1/.well-known/jwks.json").length;

Deno.test("Supabase mode accepts the project's tokens, checked against its JWKS fetched once", async () => {
  const clock = new FakeClock();
  await using fake = await startFakeSupabase({ clock });
  await using t = await testApp({ clock, env: supabaseEnv(fake) });
  const user = { id: crypto.randomUUID(), email: "sb@example.com" };
  const token = await fake.sign(user);
  for (const path of ["/api/watched", "/api/mylist", "/api/recommend/quota", "/api/watched"]) {
    assert.equal(await status(t, path, token), 200, path);
  }
  assert.equal(jwksCalls(fake), 1, "cached");
  assert.ok(t.logs.some((l) => l.userId === user.id));

  // Not the project's: our own built-in token, an expired one, alg none, another issuer.
  const builtin = await issueAccessToken(t.deps, user);
  assert.equal(await status(t, "/api/watched", builtin.token), 401);
  const short = await fake.sign(user, { expiresInS: 60 });
  const [h, p] = token.split(".");
  assert.equal(await status(t, "/api/watched", `${h}.${p}.`), 401, "signature stripped");
  const none = `${btoa('{"alg":"none","typ":"JWT"}').replace(/=+$/, "")}.${p}.`;
  assert.equal(await status(t, "/api/watched", none), 401);
  clock.advance(61_000);
  assert.equal(await status(t, "/api/watched", short), 401, "expired");
});

Deno.test("Supabase mode refetches the JWKS for an unknown key id at most once a minute", async () => {
  const clock = new FakeClock();
  await using fake = await startFakeSupabase({ clock });
  await using t = await testApp({ clock, env: supabaseEnv(fake) });
  const user = { id: crypto.randomUUID(), email: "rotate@example.com" };
  assert.equal(await status(t, "/api/watched", await fake.sign(user)), 200);
  assert.equal(jwksCalls(fake), 1);

  await fake.rotateKey();
  const rotated = await fake.sign(user);
  // Within the minute of the last fetch the new key id is not looked up again.
  assert.equal(await status(t, "/api/watched", rotated), 401);
  assert.equal(jwksCalls(fake), 1);
  clock.advance(60_000);
  assert.equal(await status(t, "/api/watched", rotated), 200);
  assert.equal(jwksCalls(fake), 2);

  // A flood of forged key ids costs one fetch per minute, not one per request.
  const [, payload, signature] = rotated.split(".");
  const forged = (kid: string) =>
    `${
      btoa(JSON.stringify({ alg: "ES256", kid, typ: "JWT" })).replace(/=+$/, "")
    }.${payload}.${signature}`;
  clock.advance(60_000);
  for (let i = 0; i < 5; i++) {
    assert.equal(await status(t, "/api/watched", forged(`forged-${i}`)), 401);
  }
  assert.equal(jwksCalls(fake), 3);
});

Deno.test("Supabase mode answers 503 while the project's JWKS cannot be fetched at all", async () => {
  const clock = new FakeClock();
  await using fake = await startFakeSupabase({ clock });
  await using t = await testApp({ clock, env: supabaseEnv(fake) });
  fake.failWith = 503;
  const token = await fake.sign({ id: crypto.randomUUID(), email: "down@example.com" });
  const res = await t.request("/api/watched", { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 503);
  assert.equal((await res.json()).code, "identity_unavailable");
  fake.failWith = null;
  assert.equal(await status(t, "/api/watched", token), 200);
});

Deno.test("Supabase mode asks GET /auth/v1/user about legacy HS256 tokens", async () => {
  const clock = new FakeClock();
  await using fake = await startFakeSupabase({ clock });
  await using t = await testApp({ clock, env: supabaseEnv(fake) });
  const user = { id: crypto.randomUUID(), email: "legacy@example.com" };
  fake.users.set(user.id, user);
  assert.equal(await status(t, "/api/watched", await fake.sign(user, { alg: "HS256" })), 200);
  const asked = fake.requests.find((r) => r.path === "/auth/v1/user")!;
  assert.equal(asked.headers.apikey, fake.anonKey);
  const stranger = { id: crypto.randomUUID(), email: "nobody@example.com" };
  assert.equal(await status(t, "/api/watched", await fake.sign(stranger, { alg: "HS256" })), 401);

  // Supabase rate-limiting or failing is not the user's token being bad: 503, not 401.
  const legacy = await fake.sign(user, { alg: "HS256", expiresInS: 60 });
  fake.failWith = 429;
  assert.equal(await status(t, "/api/watched", legacy), 503);
  fake.failWith = null;

  // Tokens that cannot be a live user's are refused without asking Supabase.
  const asks = () => fake.requests.filter((r) => r.path === "/auth/v1/user").length;
  const before = asks();
  const hmac = new TextEncoder().encode(fake.legacySecret);
  const anonKey = await new SignJWT({ role: "anon" }).setProtectedHeader({ alg: "HS256" })
    .setIssuer("supabase").setIssuedAt().setExpirationTime("10y").sign(hmac);
  assert.equal(await status(t, "/api/watched", anonKey), 401, "the legacy anon key");
  assert.equal(await status(t, "/api/watched", "eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.c2ln"), 401);
  clock.advance(61_000);
  assert.equal(await status(t, "/api/watched", legacy), 401, "expired");
  assert.equal(asks(), before);
});

Deno.test("Supabase mode signup creates a confirmed user through the admin API with the service key", async () => {
  const clock = new FakeClock();
  await using fake = await startFakeSupabase({ clock });
  await using t = await testApp({ clock, env: supabaseEnv(fake) });
  const signup = (email: string, password = "popcorn-matinee-42") =>
    t.request("/api/auth/signup", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });

  const res = await signup(" Cloud@Example.com ");
  assert.equal(res.status, 201);
  const body = await res.json();
  const created = [...fake.users.values()][0];
  assert.deepEqual(body, { success: true, user: { id: created.id, email: "cloud@example.com" } });
  const call = fake.requests.find((r) => r.path === "/auth/v1/admin/users")!;
  assert.equal(call.method, "POST");
  assert.deepEqual(call.body, {
    email: "cloud@example.com",
    password: "popcorn-matinee-42",
    email_confirm: true,
  });
  assert.equal(call.headers.apikey, fake.serviceRoleKey);
  assert.equal(call.headers.authorization, undefined, "an sb_secret key is not a bearer JWT");

  const again = await signup("CLOUD@example.com");
  assert.equal(again.status, 409);
  assert.equal((await again.json()).code, "email_exists");

  fake.failWith = 500;
  const down = await signup("later@example.com");
  assert.equal(down.status, 503);
  const problem = await down.json();
  assert.equal(problem.code, "identity_unavailable");
  assert.doesNotMatch(JSON.stringify(problem), /sb_secret/);
  fake.failWith = 429;
  const busy = await signup("later@example.com");
  assert.equal(busy.status, 503);
  assert.equal((await busy.json()).code, "identity_unavailable");
});

Deno.test("Supabase mode without a service-role key cannot sign up (503 signup_unavailable)", async () => {
  const clock = new FakeClock();
  await using fake = await startFakeSupabase({ clock });
  await using t = await testApp({ clock, env: supabaseEnv(fake, false) });
  const res = await t.request("/api/auth/signup", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "a@example.com", password: "popcorn-matinee-42" }),
  });
  assert.equal(res.status, 503);
  assert.equal((await res.json()).code, "signup_unavailable");
  assert.equal(fake.requests.length, 0);
});

Deno.test("Supabase mode does not serve the built-in /auth/v1 endpoints (404)", async () => {
  const clock = new FakeClock();
  await using fake = await startFakeSupabase({ clock });
  await using t = await testApp({ clock, env: supabaseEnv(fake) });
  const calls: [string, string][] = [
    ["POST", "/auth/v1/token?grant_type=password"],
    ["POST", "/auth/v1/token?grant_type=refresh_token"],
    ["GET", "/auth/v1/user"],
    ["POST", "/auth/v1/logout"],
    ["GET", "/auth/v1/.well-known/jwks.json"],
  ];
  for (const [method, path] of calls) {
    const res = await t.request(path, {
      method,
      headers: { "content-type": "application/json" },
      ...(method === "POST" ? { body: "{}" } : {}),
    });
    assert.equal(res.status, 404, path);
    await res.body?.cancel();
  }
});
