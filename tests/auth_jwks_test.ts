import assert from "node:assert/strict";
import { createLocalJWKSet, jwtVerify } from "jose";
import { testApp } from "./helpers/app.ts";
import { createAuthService } from "../lib/auth/service.ts";

Deno.test("GET /auth/v1/.well-known/jwks.json publishes the public key that verifies issued tokens", async () => {
  await using t = await testApp();
  const res = await t.request("/auth/v1/.well-known/jwks.json");
  assert.equal(res.status, 200);
  const jwks = await res.json();
  assert.equal(jwks.keys.length, 1);
  assert.equal(jwks.keys[0].d, undefined, "no private part");
  const user = { id: crypto.randomUUID(), email: "a@example.com" };
  const auth = createAuthService(t.deps);
  const { token } = await auth.issueAccessToken(user);
  // The app's clock is a FakeClock: check expiry at its time, not the wall clock's.
  const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
    issuer: auth.issuer,
    currentDate: new Date(t.clock.now()),
  });
  assert.equal(payload.sub, user.id);
});
