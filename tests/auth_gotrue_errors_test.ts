/** GoTrue's error bodies on /auth/v1: versioned and legacy shapes, codes, 401/403/405. */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { JSON_TYPE, signUp, token, VERSIONED } from "./helpers/auth_requests.ts";

Deno.test("GoTrue errors: versioned shape with X-Supabase-Api-Version, legacy shape without", async () => {
  await using t = await testApp();
  await signUp(t, "errors@example.com", "popcorn-matinee-42");
  const wrong = { email: "errors@example.com", password: "not-the-password" };

  const versioned = await token(t, "password", wrong);
  assert.equal(versioned.status, 400);
  assert.equal(versioned.headers.get("x-supabase-api-version"), "2024-01-01");
  assert.equal(versioned.headers.get("x-sb-error-code"), "invalid_credentials");
  assert.deepEqual(await versioned.json(), {
    code: "invalid_credentials",
    message: "Invalid login credentials",
  });

  const legacy = await token(t, "password", wrong, JSON_TYPE);
  assert.equal(legacy.status, 400);
  assert.equal(legacy.headers.get("x-supabase-api-version"), null);
  assert.deepEqual(await legacy.json(), {
    code: 400,
    error_code: "invalid_credentials",
    msg: "Invalid login credentials",
  });

  const grant = await token(t, "magic", {});
  assert.equal(grant.status, 400);
  assert.deepEqual(await grant.json(), {
    code: "invalid_credentials",
    message: "unsupported_grant_type",
  });

  const badJson = await t.request("/auth/v1/token?grant_type=password", {
    method: "POST",
    headers: VERSIONED,
    body: "{not json",
  });
  assert.equal(badJson.status, 400);
  assert.equal((await badJson.json()).code, "bad_json");

  const short = await token(t, "refresh_token", { refresh_token: "short" });
  assert.equal(short.status, 400);
  assert.equal((await short.json()).code, "validation_failed");

  const noBearer = await t.request("/auth/v1/user", { headers: VERSIONED });
  assert.equal(noBearer.status, 401);
  assert.equal((await noBearer.json()).code, "no_authorization");
  const badBearer = await t.request("/auth/v1/user", {
    headers: { ...VERSIONED, authorization: "Bearer a.b.c" },
  });
  assert.equal(badBearer.status, 403);
  assert.equal((await badBearer.json()).code, "bad_jwt");

  const method = await t.request("/auth/v1/token", { method: "GET" });
  assert.equal(method.status, 405);
  assert.equal(method.headers.get("allow"), "POST");
  await method.body?.cancel();
});
