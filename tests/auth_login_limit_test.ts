/** Password sign-in limits: 10 per 15 minutes per email, 50 per 15 minutes per client address. */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/clock.ts";
import { type TestApp, testApp } from "./helpers/app.ts";

const HEADERS = { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" };

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

Deno.test("the 11th sign-in attempt for one email within 15 minutes answers 429, even with the right password", async () => {
  const clock = new FakeClock();
  await using t = await testApp({ clock, env: { CLIENT_IP_HEADER: "x-forwarded-for" } });
  const created = await t.request("/api/auth/signup", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "target@example.com", password: "right-popcorn-matinee" }),
  });
  assert.equal(created.status, 201);
  await created.body?.cancel();

  for (let i = 0; i < 10; i++) {
    // Spread over addresses and letter cases: the email is counted however it is written.
    const email = i % 2 ? "TARGET@example.com" : "target@example.com";
    assert.equal(await status(await login(t, email, "wrong", `192.0.2.${i}`)), 400, `attempt ${i}`);
  }
  const limited = await login(t, "target@example.com", "right-popcorn-matinee", "192.0.2.99");
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get("x-sb-error-code"), "over_request_rate_limit");
  assert.ok(Number(limited.headers.get("retry-after")) > 0);
  assert.deepEqual(await limited.json(), {
    code: "over_request_rate_limit",
    message: "Request rate limit reached",
  });
  assert.equal(
    await status(await login(t, "other@example.com", "x", "192.0.2.99")),
    400,
    "another email is counted apart",
  );

  clock.advance(15 * 60_000);
  assert.equal(
    await status(await login(t, "target@example.com", "right-popcorn-matinee", "192.0.2.1")),
    200,
  );
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
