/**
 * The /trakt edge (docs/trakt.md, "Sign-in"): Trakt's error body, the API key, Bearer sign-in with
 * a personal access token (a `read` one only GETs), CORS preflights.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import type { TestApp } from "./helpers/app.ts";
import { traktUserOf } from "@/lib/http/middleware/trakt_user.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { Ctx } from "@/lib/http/app_env.ts";

const KEY = { "trakt-api-key": "client-abc", "trakt-api-version": "2" };

async function personalToken(t: TestApp, u: TestUser, scope: "read" | "write"): Promise<string> {
  const made = await (await t.request("/api/tokens", {
    method: "POST",
    headers: { ...u.headers, "content-type": "application/json" },
    body: JSON.stringify({ name: `trakt ${scope}`, scope }),
  })).json();
  return made.token;
}

async function traktError(response: Response, status: number, error: string) {
  assert.equal(response.status, status);
  assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
  const body = await response.json();
  assert.equal(body.error, error);
  assert.equal(typeof body.error_description, "string");
  assert.equal(response.headers.get("access-control-allow-origin"), "*");
  return body;
}

Deno.test("an unknown /trakt path answers 404 in Trakt's error body, not problem+json", async () => {
  await using t = await testApp();
  await traktError(await t.request("/trakt/nothing/here", { headers: KEY }), 404, "not_found");
});

Deno.test("a /trakt request without trakt-api-key answers 403 invalid_api_key", async () => {
  await using t = await testApp();
  await traktError(await t.request("/trakt/nothing/here"), 403, "invalid_api_key");
});

Deno.test("an unknown Bearer token on /trakt answers 401 with Trakt's realm", async () => {
  await using t = await testApp();
  const response = await t.request("/trakt/nothing/here", {
    headers: { ...KEY, authorization: "Bearer not-a-token" },
  });
  assert.equal(
    response.headers.get("www-authenticate"),
    'Bearer realm="trakt", error="invalid_token"',
  );
  await traktError(response, 401, "invalid_token");
});

Deno.test("a personal access token signs in on /trakt; a read one may not POST (403)", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const read = await personalToken(t, u, "read");
  const write = await personalToken(t, u, "write");
  // Signed in, the unknown path is a plain 404 (not a 401).
  await traktError(
    await t.request("/trakt/nothing/here", {
      headers: { ...KEY, authorization: `Bearer ${read}` },
    }),
    404,
    "not_found",
  );
  await traktError(
    await t.request("/trakt/nothing/here", {
      method: "POST",
      headers: { ...KEY, authorization: `Bearer ${read}` },
    }),
    403,
    "insufficient_scope",
  );
  await traktError(
    await t.request("/trakt/nothing/here", {
      method: "POST",
      headers: { ...KEY, authorization: `Bearer ${write}` },
    }),
    404,
    "not_found",
  );
});

Deno.test("a CORS preflight on /trakt answers 204 with Trakt's allowed headers", async () => {
  await using t = await testApp();
  const response = await t.request("/trakt/sync/history", {
    method: "OPTIONS",
    headers: { origin: "https://player.example", "access-control-request-method": "POST" },
  });
  assert.equal(response.status, 204);
  assert.equal(response.headers.get("access-control-allow-origin"), "*");
  assert.match(response.headers.get("access-control-allow-headers") ?? "", /trakt-api-key/);
  assert.match(response.headers.get("access-control-expose-headers") ?? "", /X-Pagination-Page/);
});

Deno.test("traktUserOf without a token throws Trakt's 401 challenge; with one gives the caller", () => {
  const none = { var: {} } as unknown as Ctx;
  assert.throws(() => traktUserOf(none), (error: unknown) => {
    assert.ok(error instanceof Problem);
    assert.equal(error.status, 401);
    assert.equal(error.headers["WWW-Authenticate"], 'Bearer realm="trakt"');
    return true;
  });
  const caller = { userId: "u1", canWrite: true, tokenId: "pat:1" };
  assert.deepEqual(traktUserOf({ var: { traktUser: caller } } as unknown as Ctx), caller);
});

Deno.test("a method a /trakt route does not take answers 405 with Allow, in Trakt's error body", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const token = await personalToken(t, u, "write");
  const response = await t.request("/trakt/users/settings", {
    method: "DELETE",
    headers: { ...KEY, authorization: `Bearer ${token}` },
  });
  assert.equal(response.headers.get("allow"), "GET");
  await traktError(response, 405, "method_not_allowed");
});

Deno.test("an OAuth body with a NUL character answers 422, never a 5xx", async () => {
  await using t = await testApp();
  const response = await t.request("/trakt/oauth/device/code", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "client_id=a%00b",
  });
  await traktError(response, 422, "invalid_text");
});
