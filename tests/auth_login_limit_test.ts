/**
 * Password sign-in limits (docs/identity.md): failed attempts only, 10 per 15 minutes per
 * (email, client address) pair and cleared by that pair's success, 100 per 15 minutes per email
 * across addresses, and 50 attempts per 15 minutes per client address.
 */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { type TestApp, testApp } from "./helpers/app.ts";

const HEADERS = { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" };
const PASSWORD = "right-popcorn-matinee";

function login(t: TestApp, email: string, password: string, ip: string) {
  return t.request("/auth/v1/token?grant_type=password", {
    method: "POST",
    headers: { ...HEADERS, "x-forwarded-for": ip },
    body: JSON.stringify({ email, password }),
  });
}

async function status(res: Response): Promise<number> {
  await res.body?.cancel();
  return res.status;
}

async function withAccount(clock: FakeClock): Promise<TestApp> {
  const t = await testApp({ clock, env: { CLIENT_IP_HEADER: "x-forwarded-for" } });
  const created = await t.request("/api/auth/signup", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "target@example.com", password: PASSWORD }),
  });
  assert.equal(created.status, 201);
  await created.body?.cancel();
  return t;
}

Deno.test("ten successful sign-ins within 15 minutes leave the right password working: 200", async () => {
  const clock = new FakeClock();
  await using t = await withAccount(clock);
  for (let i = 0; i < 10; i++) {
    assert.equal(await status(await login(t, "target@example.com", PASSWORD, "192.0.2.1")), 200);
  }
  assert.equal(await status(await login(t, "target@example.com", PASSWORD, "192.0.2.1")), 200);
});

Deno.test("the 11th sign-in from one (email, address) pair after ten wrong passwords answers 429, even with the right one", async () => {
  const clock = new FakeClock();
  await using t = await withAccount(clock);
  for (let i = 0; i < 10; i++) {
    // The email is counted however it is written.
    const email = i % 2 ? "TARGET@example.com" : "target@example.com";
    assert.equal(await status(await login(t, email, "wrong", "192.0.2.7")), 400, `attempt ${i}`);
  }
  const limited = await login(t, "target@example.com", PASSWORD, "192.0.2.7");
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get("x-sb-error-code"), "over_request_rate_limit");
  assert.ok(Number(limited.headers.get("retry-after")) > 0);
  assert.deepEqual(await limited.json(), {
    code: "over_request_rate_limit",
    message: "Request rate limit reached",
  });
  assert.equal(await status(await login(t, "target@example.com", "wrong", "192.0.2.7")), 429);

  // One address cannot lock out another: the owner elsewhere still signs in.
  assert.equal(await status(await login(t, "target@example.com", PASSWORD, "203.0.113.9")), 200);
  assert.equal(
    await status(await login(t, "other@example.com", "x", "192.0.2.7")),
    400,
    "another email from that address is counted apart",
  );

  clock.advance(15 * 60_000);
  assert.equal(await status(await login(t, "target@example.com", PASSWORD, "192.0.2.7")), 200);
});

Deno.test("a success clears its pair's failures: nine wrong, the right one, ten wrong more answer 400", async () => {
  const clock = new FakeClock();
  await using t = await withAccount(clock);
  for (let i = 0; i < 9; i++) {
    assert.equal(await status(await login(t, "target@example.com", "wrong", "192.0.2.8")), 400);
  }
  assert.equal(await status(await login(t, "target@example.com", PASSWORD, "192.0.2.8")), 200);
  for (let i = 0; i < 10; i++) {
    assert.equal(await status(await login(t, "target@example.com", "wrong", "192.0.2.8")), 400);
  }
  assert.equal(await status(await login(t, "target@example.com", "wrong", "192.0.2.8")), 429);
});

Deno.test("100 failed sign-ins for one email across addresses lock it for 15 minutes (429)", async () => {
  const clock = new FakeClock();
  await using t = await withAccount(clock);
  for (let i = 0; i < 100; i++) {
    const ip = `198.18.${Math.floor(i / 9)}.${i % 9}`;
    assert.equal(await status(await login(t, "target@example.com", "wrong", ip)), 400, `#${i}`);
  }
  assert.equal(await status(await login(t, "target@example.com", PASSWORD, "203.0.113.50")), 429);
  clock.advance(15 * 60_000);
  assert.equal(await status(await login(t, "target@example.com", PASSWORD, "203.0.113.50")), 200);
});

Deno.test("the 51st sign-in attempt from one client address within 15 minutes answers 429", async () => {
  const clock = new FakeClock();
  await using t = await testApp({ clock, env: { CLIENT_IP_HEADER: "x-forwarded-for" } });
  for (let i = 0; i < 50; i++) {
    assert.equal(await status(await login(t, `n${i}@example.com`, "x", "198.51.100.5")), 400);
  }
  const limited = await login(t, "n50@example.com", "x", "198.51.100.5");
  assert.equal(limited.status, 429);
  assert.equal((await limited.json()).code, "over_request_rate_limit");
  assert.equal(await status(await login(t, "n50@example.com", "x", "198.51.100.6")), 400);
});

Deno.test("a locked pair stays 429 until the last millisecond of its 15-minute window, then 200", async () => {
  // The clock starts on a window boundary, so the window ends exactly 15 minutes later.
  const clock = new FakeClock("2026-11-22T12:00:00Z");
  await using t = await withAccount(clock);
  for (let i = 0; i < 10; i++) {
    assert.equal(await status(await login(t, "target@example.com", "wrong", "192.0.2.9")), 400);
  }
  clock.advance(15 * 60_000 - 1);
  const limited = await login(t, "target@example.com", PASSWORD, "192.0.2.9");
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get("retry-after"), "1");
  await limited.body?.cancel();
  clock.advance(1);
  assert.equal(await status(await login(t, "target@example.com", PASSWORD, "192.0.2.9")), 200);
});
