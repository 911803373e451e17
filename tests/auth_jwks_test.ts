import assert from "node:assert/strict";
import { createLocalJWKSet, jwtVerify } from "jose";
import { testApp } from "./helpers/app.ts";
import { issueAccessToken } from "./helpers/tokens.ts";
import { signAccessToken, verifyAccessToken } from "../lib/identity/auth/access_token.ts";
import { loadSigningKey } from "../lib/identity/auth/signing_key.ts";
import { FakeClock } from "../lib/core/clock.ts";

Deno.test("GET /auth/v1/.well-known/jwks.json publishes the public key that verifies issued tokens", async () => {
  await using t = await testApp();
  const res = await t.request("/auth/v1/.well-known/jwks.json");
  assert.equal(res.status, 200);
  const jwks = await res.json();
  assert.equal(jwks.keys.length, 1);
  assert.equal(jwks.keys[0].d, undefined, "no private part");
  const user = { id: crypto.randomUUID(), email: "a@example.com" };
  const auth = t.services.auth;
  const { token } = await issueAccessToken(t.deps, user);
  // The app's clock is a FakeClock: check expiry at its time, not the wall clock's.
  const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
    issuer: auth.issuer,
    currentDate: new Date(t.clock.now()),
  });
  assert.equal(payload.sub, user.id);
});

Deno.test("an AUTH_SIGNING_KEY exported by WebCrypto loads, and only public members are published", async () => {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ]);
  // WebCrypto's export carries key_ops ["sign"] and ext: true.
  const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  const key = await loadSigningKey({ jwkJson: JSON.stringify(jwk) });
  assert.deepEqual(Object.keys(key.publicJwk).sort(), [
    "alg",
    "crv",
    "key_ops",
    "kid",
    "kty",
    "use",
    "x",
    "y",
  ]);
  assert.deepEqual(key.publicJwk.key_ops, ["verify"]);
  const user = { id: crypto.randomUUID(), email: "b@example.com" };
  const clock = new FakeClock();
  const { token } = await signAccessToken(key, user, { issuer: "https://x/auth/v1", clock });
  const verified = await verifyAccessToken(key.publicKey, token, {
    issuer: "https://x/auth/v1",
    clock,
  });
  assert.equal(verified.id, user.id);
});
