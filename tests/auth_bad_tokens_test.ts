/** Every protected route answers 401 `unauthorized` with `WWW-Authenticate: Bearer` for a bad token. */
import assert from "node:assert/strict";
import { generateKeyPair, importJWK, type JWTPayload, SignJWT } from "jose";
import { hashPassword } from "../lib/identity/auth/passwords.ts";
import { FakeClock } from "../lib/core/clock.ts";
import { signedIn } from "../lib/http/middleware/require_user.ts";
import { createApp } from "../app.ts";
import { manifest } from "../routes.gen.ts";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";

const PROTECTED = ["/api/watched", "/api/mylist", "/api/recommend", "/api/recommend/quota"];

async function assertUnauthorized(res: Response, label: string) {
  assert.equal(res.status, 401, label);
  assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer\b/, label);
  assert.match(res.headers.get("content-type") ?? "", /^application\/problem\+json/, label);
  const body = await res.json();
  assert.equal(body.code, "unauthorized", label);
  assert.equal(body.status, 401, label);
}

function b64url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

Deno.test("protected routes answer 401 for the forged-token list: other key, alg none, HS256 with the public key, expired, not yet valid, future iat, wrong aud or iss, truncated, oversized", async () => {
  const clock = new FakeClock();
  await using t = await testApp({ clock });
  const user = await createUser(t.deps);
  const issuer = `${t.config.siteUrl}/auth/v1`;
  const jwk = JSON.parse(t.config.authSigningKey!);
  const ownKey = await importJWK(jwk, "ES256");
  const now = Math.floor(clock.now() / 1000);
  const claims: JWTPayload = {
    sub: user.id,
    email: user.email,
    role: "authenticated",
    aud: "authenticated",
    iss: issuer,
    iat: now,
    exp: now + 3600,
  };
  const sign = (
    payload: JWTPayload,
    key: CryptoKey | Uint8Array = ownKey as unknown as CryptoKey,
  ) =>
    new SignJWT(payload).setProtectedHeader({ alg: "ES256", kid: jwk.kid, typ: "JWT" }).sign(key);

  const foreign = await generateKeyPair("ES256");
  const kinds: Record<string, string | null> = {
    missing: null,
    "not a JWT": "Bearer not-a-jwt",
    "wrong scheme": `Basic ${btoa("user:pass")}`,
    "empty bearer": "Bearer ",
    "alg none": `Bearer ${b64url({ alg: "none", typ: "JWT" })}.${b64url(claims)}.`,
    "wrong audience": `Bearer ${await sign({ ...claims, aud: "anon" })}`,
    "wrong issuer": `Bearer ${await sign({ ...claims, iss: "https://elsewhere.example/auth/v1" })}`,
    "another key": `Bearer ${await sign(claims, foreign.privateKey)}`,
    "HS256 with the public key as secret": `Bearer ${await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", kid: jwk.kid })
      .sign(new TextEncoder().encode(JSON.stringify({ ...jwk, d: undefined })))}`,
    "not a user role": `Bearer ${await sign({ ...claims, role: "service_role" })}`,
    "expired": `Bearer ${await sign({ ...claims, iat: now - 7200, exp: now - 3600 })}`,
    "not yet valid": `Bearer ${await sign({ ...claims, nbf: now + 600 })}`,
    "iat 61 s in the future": `Bearer ${await sign({ ...claims, iat: now + 61 })}`,
    "truncated": `Bearer ${(await sign(claims)).slice(0, -10)}`,
    "signature dropped": `Bearer ${(await sign(claims)).split(".").slice(0, 2).join(".")}.`,
    "oversized": `Bearer ${await sign({ ...claims, pad: "x".repeat(9000) })}`,
    "tampered payload": `Bearer ${
      (await sign(claims)).split(".").map((part, i) =>
        i === 1 ? b64url({ ...claims, sub: crypto.randomUUID() }) : part
      ).join(".")
    }`,
  };
  for (const path of PROTECTED) {
    for (const [kind, authorization] of Object.entries(kinds)) {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      await assertUnauthorized(await t.request(path, { headers }), `${path} ${kind}`);
    }
  }

  const good = await t.request("/api/watched", { headers: user.headers });
  assert.equal(good.status, 200, "the valid token itself is accepted");
  await good.body?.cancel();
  // The edges: a minute of clock skew on iat is tolerated, and size alone refuses nothing small.
  const skewed = await sign({ ...claims, iat: now + 60, session_id: undefined });
  const atEdge = await t.request("/api/recommend/quota", {
    headers: { authorization: `Bearer ${skewed}` },
  });
  assert.notEqual(atEdge.status, 401, "iat 60 s ahead is within the skew");
  await atEdge.body?.cancel();

  clock.advance(3600 * 1000 + 1000);
  for (const path of PROTECTED) {
    await assertUnauthorized(await t.request(path, { headers: user.headers }), `${path} expired`);
  }
});

Deno.test("a token of a deleted user is 401", async () => {
  await using t = await testApp();
  const user = await createUser(t.deps);
  await t.store.query("delete from auth.users where id = $1", [user.id]);
  for (const path of PROTECTED) {
    await assertUnauthorized(await t.request(path, { headers: user.headers }), path);
  }
});

Deno.test("a token whose session was signed out is 401 on every protected route", async () => {
  await using t = await testApp();
  await createUser(t.deps, { email: "out@example.com" });
  await t.store.query(
    "update auth.users set encrypted_password = $1 where email = 'out@example.com'",
    [await hashPassword("password-1")],
  );
  const login = await t.request("/auth/v1/token?grant_type=password", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "out@example.com", password: "password-1" }),
  });
  assert.equal(login.status, 200);
  const { access_token } = await login.json();
  const headers = { authorization: `Bearer ${access_token}` };
  const before = await t.request("/api/watched", { headers });
  assert.equal(before.status, 200);
  await before.body?.cancel();
  const out = await t.request("/auth/v1/logout", { method: "POST", headers });
  assert.equal(out.status, 204);
  for (const path of PROTECTED) {
    await assertUnauthorized(await t.request(path, { headers }), path);
  }
});

Deno.test("a signedIn handler on a route that forgot requireUser answers requireUser's own 401", async () => {
  await using t = await testApp();
  const app = createApp(t.deps, {
    manifest: {
      ...manifest,
      routes: [...manifest.routes, {
        pattern: "/api/forgetful",
        file: "test",
        module: { handler: signedIn({ GET: (c) => c.json({ id: c.var.user.id }) }) },
      }],
    },
  });
  const forgot = await app.request("/api/forgetful");
  const guarded = await t.request("/api/watched");
  await assertUnauthorized(forgot.clone(), "forgetful");
  assert.deepEqual(await forgot.json(), await guarded.json());
  assert.equal(forgot.headers.get("www-authenticate"), guarded.headers.get("www-authenticate"));
});
