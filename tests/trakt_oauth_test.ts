/**
 * Trakt sign-in over HTTP (docs/trakt.md, "Sign-in"): the device flow's statuses at their edges
 * (the injected clock), /api/trakt/activate, refresh with rotation, revoke, own apps and the code
 * flow, authorizations listed and ended. Both stores.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "./helpers/app.ts";
import { problem } from "./helpers/problems.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import type { FakeClock } from "@/lib/core/clock.ts";
import { sessionCookie } from "./helpers/web.ts";

const CLIENT = "a".repeat(64);

function post(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
}

async function traktError(response: Response, status: number, error: string) {
  assert.equal(response.status, status, `${error}: ${response.status}`);
  const body = await response.json();
  assert.equal(body.error, error);
  return body;
}

async function deviceCode(t: TestApp, clientId = CLIENT) {
  const response = await t.request("/trakt/oauth/device/code", post({ client_id: clientId }));
  assert.equal(response.status, 200);
  return await response.json();
}

function poll(t: TestApp, code: string, clientId = CLIENT, clientSecret?: string) {
  return t.request(
    "/trakt/oauth/device/token",
    post({ code, client_id: clientId, client_secret: clientSecret }),
  );
}

function approve(t: TestApp, u: TestUser, code: string, yes = true) {
  return t.request("/api/trakt/activate", post({ code, approve: yes }, u.headers));
}

/** A device-flow token pair for `u`. */
async function signIn(t: TestApp<FakeClock>, u: TestUser, clientId = CLIENT, secret?: string) {
  const codes = await deviceCode(t, clientId);
  assert.equal((await approve(t, u, codes.user_code)).status, 200);
  const response = await poll(t, codes.device_code, clientId, secret);
  assert.equal(response.status, 200);
  return await response.json();
}

function asTrakt(token: string, clientId = CLIENT): Record<string, string> {
  return { authorization: `Bearer ${token}`, "trakt-api-key": clientId, "trakt-api-version": "2" };
}

/** 404 with a live token (the edge let it through), 401 with a dead one. */
async function tokenStatus(t: TestApp, token: string, clientId = CLIENT): Promise<number> {
  const response = await t.request("/trakt/no/such/route", { headers: asTrakt(token, clientId) });
  await response.body?.cancel();
  return response.status;
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] the device flow answers Trakt's statuses: 400 pending, 429 too fast, then 200 tokens once, then 409`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const codes = await deviceCode(t);
    assert.match(codes.user_code, /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{8}$/);
    assert.match(codes.device_code, /^[0-9a-f]{64}$/);
    assert.equal(codes.verification_url, `${t.config.siteUrl}/activate`);
    assert.equal(codes.expires_in, 600);
    assert.equal(codes.interval, 5);

    await traktError(await poll(t, codes.device_code), 400, "authorization_pending");
    t.clock.advance(4_999);
    const fast = await poll(t, codes.device_code);
    assert.equal(fast.headers.get("retry-after"), "5");
    await traktError(fast, 429, "slow_down");
    t.clock.advance(1);
    await traktError(await poll(t, codes.device_code), 400, "authorization_pending");

    // The person types it in lower case; the app is a client registered elsewhere: no name.
    const seen = await (await t.request(
      `/api/trakt/activate?code=${codes.user_code.toLowerCase()}`,
      { headers: u.headers },
    )).json();
    assert.deepEqual(seen.app, { name: null, clientId: CLIENT });
    assert.equal(seen.userCode, codes.user_code);
    assert.deepEqual(await (await approve(t, u, codes.user_code)).json(), { result: "approved" });

    t.clock.advance(5_000);
    const granted = await poll(t, codes.device_code);
    assert.equal(granted.status, 200);
    const tokens = await granted.json();
    assert.equal(tokens.token_type, "bearer");
    assert.equal(tokens.expires_in, 7_776_000);
    assert.equal(tokens.scope, "public");
    assert.equal(tokens.created_at, Math.floor(t.clock.now() / 1000));
    assert.match(tokens.access_token, /^[0-9a-f]{64}$/);
    assert.equal(await tokenStatus(t, tokens.access_token), 404);

    t.clock.advance(5_000);
    await traktError(await poll(t, codes.device_code), 409, "already_used");
    // The code is gone from /activate too.
    await problem(
      await t.request(`/api/trakt/activate?code=${codes.user_code}`, { headers: u.headers }),
      404,
      "device_code_not_found",
    );
  });

  Deno.test(`[${engine}] a device code expires at 600 s exactly (410), a denied one answers 418, an unknown one 404`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const late = await deviceCode(t);
    t.clock.advance(599_999);
    await traktError(await poll(t, late.device_code), 400, "authorization_pending");
    t.clock.advance(1);
    await traktError(await poll(t, late.device_code), 410, "expired");
    await problem(await approve(t, u, late.user_code), 404, "device_code_not_found");

    const denied = await deviceCode(t);
    assert.deepEqual(await (await approve(t, u, denied.user_code, false)).json(), {
      result: "denied",
    });
    await traktError(await poll(t, denied.device_code), 418, "denied");
    await traktError(await poll(t, "f".repeat(64)), 404, "not_found");
    // Another client cannot poll this client's code.
    const other = await deviceCode(t);
    await traktError(await poll(t, other.device_code, "b".repeat(64)), 404, "not_found");
  });

  Deno.test(`[${engine}] /api/trakt/activate refuses a personal access token (403 insufficient_scope) and a code outside the alphabet (404)`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const made =
      await (await t.request("/api/tokens", post({ name: "s", scope: "write" }, u.headers)))
        .json();
    const codes = await deviceCode(t);
    await problem(
      await t.request(`/api/trakt/activate?code=${codes.user_code}`, {
        headers: { authorization: `Bearer ${made.token}` },
      }),
      403,
      "insufficient_scope",
    );
    await problem(
      await t.request("/api/trakt/activate?code=OOOO1111", { headers: u.headers }),
      404,
      "device_code_not_found",
    );
    await problem(await t.request("/api/trakt/activate?code=ABCDEFGH"), 401, "unauthorized");
  });

  Deno.test(`[${engine}] a refresh token works once: it rotates both tokens and the old pair is dead`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const first = await signIn(t, u);
    const refreshed = await t.request(
      "/trakt/oauth/token",
      post({
        grant_type: "refresh_token",
        refresh_token: first.refresh_token,
        client_id: CLIENT,
        client_secret: "anything",
        redirect_uri: "urn:ietf:wg:oauth:2.0:oob",
      }),
    );
    assert.equal(refreshed.status, 200);
    const second = await refreshed.json();
    assert.notEqual(second.access_token, first.access_token);
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.equal(await tokenStatus(t, first.access_token), 401);
    assert.equal(await tokenStatus(t, second.access_token), 404);
    await traktError(
      await t.request(
        "/trakt/oauth/token",
        post({
          grant_type: "refresh_token",
          refresh_token: first.refresh_token,
          client_id: CLIENT,
        }),
      ),
      401,
      "invalid_grant",
    );
    // Another client's refresh of it is refused too.
    await traktError(
      await t.request(
        "/trakt/oauth/token",
        post({ grant_type: "refresh_token", refresh_token: second.refresh_token, client_id: "x" }),
      ),
      401,
      "invalid_grant",
    );
  });

  Deno.test(`[${engine}] an access token lasts 90 days to the millisecond, and another app's key makes it 403`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const tokens = await signIn(t, u);
    await traktError(
      await t.request("/trakt/no/such/route", { headers: asTrakt(tokens.access_token, "other") }),
      403,
      "forbidden",
    );
    t.clock.advance(7_776_000_000 - 1);
    assert.equal(await tokenStatus(t, tokens.access_token), 404);
    t.clock.advance(1);
    const expired = await t.request("/trakt/no/such/route", {
      headers: asTrakt(tokens.access_token),
    });
    assert.equal(
      expired.headers.get("www-authenticate"),
      'Bearer realm="trakt", error="invalid_token"',
    );
    await traktError(expired, 401, "invalid_token");
  });

  Deno.test(`[${engine}] POST /trakt/oauth/revoke ends the token's authorization; an unknown token answers 200 too`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const tokens = await signIn(t, u);
    const revoked = await t.request(
      "/trakt/oauth/revoke",
      post({ token: tokens.access_token, client_id: CLIENT }),
    );
    assert.equal(revoked.status, 200);
    assert.deepEqual(await revoked.json(), {});
    assert.equal(await tokenStatus(t, tokens.access_token), 401);
    const again = await t.request(
      "/trakt/oauth/revoke",
      post({ token: tokens.access_token, client_id: CLIENT }),
    );
    assert.equal(again.status, 200);
    await again.body?.cancel();
  });

  Deno.test(`[${engine}] own apps: the secret is shown once, the code flow takes exact redirect URIs, codes work once`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const stranger = await createUser(t.deps);
    const made = await t.request(
      "/api/trakt/apps",
      post({ name: "My Kodi", redirectUris: ["https://kodi.example/cb"] }, u.headers),
    );
    assert.equal(made.status, 201);
    const app = await made.json();
    assert.match(app.clientId, /^[0-9a-f]{64}$/);
    assert.match(app.clientSecret, /^[0-9a-f]{64}$/);
    const listed = await (await t.request("/api/trakt/apps", { headers: u.headers })).json();
    assert.equal(listed.apps.length, 1);
    assert.equal(listed.apps[0].clientSecret, undefined);
    assert.deepEqual(listed.apps[0].redirectUris, ["https://kodi.example/cb"]);

    const authorize = (who: TestUser, body: Record<string, unknown>) =>
      t.request("/api/trakt/authorize", post({ clientId: app.clientId, ...body }, who.headers));
    await problem(
      await authorize(u, { redirectUri: "https://kodi.example/cb/", approve: true }),
      400,
      "invalid_redirect_uri",
    );
    await problem(
      await authorize(stranger, { redirectUri: "https://kodi.example/cb", approve: true }),
      400,
      "invalid_client",
    );
    const denied = await (await authorize(u, {
      redirectUri: "https://kodi.example/cb",
      state: "s1",
      approve: false,
    })).json();
    assert.equal(denied.code, null);
    assert.equal(denied.redirectTo, "https://kodi.example/cb?error=access_denied&state=s1");

    const granted = await (await authorize(u, {
      redirectUri: "https://kodi.example/cb",
      state: "s2",
      approve: true,
    })).json();
    assert.equal(
      granted.redirectTo,
      `https://kodi.example/cb?code=${granted.code}&state=s2`,
    );
    const exchange = (secret: string) =>
      t.request(
        "/trakt/oauth/token",
        post({
          grant_type: "authorization_code",
          code: granted.code,
          client_id: app.clientId,
          client_secret: secret,
          redirect_uri: "https://kodi.example/cb",
        }),
      );
    await traktError(await exchange("0".repeat(64)), 401, "invalid_grant");
    const tokens = await exchange(app.clientSecret);
    assert.equal(tokens.status, 200);
    const pair = await tokens.json();
    assert.equal(await tokenStatus(t, pair.access_token, app.clientId), 404);
    await traktError(await exchange(app.clientSecret), 401, "invalid_grant");

    // Out of band: no redirect, the page shows the code; it exchanges with the oob URI.
    const oob = await (await authorize(u, {
      redirectUri: "urn:ietf:wg:oauth:2.0:oob",
      approve: true,
    })).json();
    assert.equal(oob.redirectTo, null);
    assert.match(oob.code, /^[0-9a-f]{64}$/);

    // A code lives 10 minutes.
    t.clock.advance(600_000);
    await traktError(
      await t.request(
        "/trakt/oauth/token",
        post({
          grant_type: "authorization_code",
          code: oob.code,
          client_id: app.clientId,
          client_secret: app.clientSecret,
        }),
      ),
      401,
      "invalid_grant",
    );

    // The device flow names the app, and its secret is checked when polling.
    const codes = await deviceCode(t, app.clientId);
    const seen = await (await t.request(`/api/trakt/activate?code=${codes.user_code}`, {
      headers: u.headers,
    })).json();
    assert.deepEqual(seen.app, { name: "My Kodi", clientId: app.clientId });
    await approve(t, u, codes.user_code);
    await traktError(await poll(t, codes.device_code, app.clientId, "nope"), 401, "invalid_client");

    // Deleting the app ends its tokens.
    const gone = await t.request(`/api/trakt/apps/${app.id}`, {
      method: "DELETE",
      headers: u.headers,
    });
    assert.equal(gone.status, 204);
    assert.equal(await tokenStatus(t, pair.access_token, app.clientId), 401);
    await problem(
      await t.request(`/api/trakt/apps/${app.id}`, { method: "DELETE", headers: u.headers }),
      404,
      "not_found",
    );
  });

  Deno.test(`[${engine}] a user keeps at most 20 apps and 10 redirect URIs each`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const uris = (n: number) => Array.from({ length: n }, (_, i) => `https://a.example/${i}`);
    await problem(
      await t.request("/api/trakt/apps", post({ name: "x", redirectUris: uris(11) }, u.headers)),
      400,
      "invalid_body",
    );
    await problem(
      await t.request(
        "/api/trakt/apps",
        post({ name: "x", redirectUris: ["javascript:alert(1)"] }, u.headers),
      ),
      400,
      "invalid_body",
    );
    for (let i = 0; i < 20; i++) {
      const made = await t.request(
        "/api/trakt/apps",
        post({ name: `app ${i}`, redirectUris: uris(10) }, u.headers),
      );
      assert.equal(made.status, 201);
      await made.body?.cancel();
    }
    await problem(
      await t.request("/api/trakt/apps", post({ name: "21st" }, u.headers)),
      409,
      "too_many_apps",
    );
  });

  Deno.test(`[${engine}] GET /api/trakt/authorizations lists each signed-in app with its last use; DELETE ends both its tokens at once`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const other = await createUser(t.deps);
    const tokens = await signIn(t, u);
    t.clock.advance(120_000);
    assert.equal(await tokenStatus(t, tokens.access_token), 404);
    const { authorizations } = await (await t.request("/api/trakt/authorizations", {
      headers: u.headers,
    })).json();
    assert.equal(authorizations.length, 1);
    assert.deepEqual(authorizations[0].app, { name: null, clientId: CLIENT });
    assert.equal(authorizations[0].scope, "public");
    assert.equal(authorizations[0].lastUsedAt, new Date(t.clock.now()).toISOString());
    // Another user can neither see nor end it.
    assert.deepEqual(
      (await (await t.request("/api/trakt/authorizations", { headers: other.headers })).json())
        .authorizations,
      [],
    );
    await problem(
      await t.request(`/api/trakt/authorizations/${authorizations[0].id}`, {
        method: "DELETE",
        headers: other.headers,
      }),
      404,
      "not_found",
    );
    const ended = await t.request(`/api/trakt/authorizations/${authorizations[0].id}`, {
      method: "DELETE",
      headers: u.headers,
    });
    assert.equal(ended.status, 204);
    assert.equal(await tokenStatus(t, tokens.access_token), 401);
    await traktError(
      await t.request(
        "/trakt/oauth/token",
        post({
          grant_type: "refresh_token",
          refresh_token: tokens.refresh_token,
          client_id: CLIENT,
        }),
      ),
      401,
      "invalid_grant",
    );
  });
}

Deno.test("a body that is not JSON answers 412 on /trakt, a bad field 400, never problem+json", async () => {
  await using t = await testApp();
  const response = await t.request("/trakt/oauth/device/code", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{not json",
  });
  assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
  await traktError(response, 412, "invalid_body");
  await traktError(
    await t.request("/trakt/oauth/device/code", post({ client_id: "a\u0000b" })),
    422,
    "invalid_text",
  );
  await traktError(await t.request("/trakt/oauth/device/code", post({})), 400, "invalid_request");
  await traktError(
    await t.request("/trakt/oauth/token", post({ grant_type: "password", client_id: "x" })),
    400,
    "invalid_request",
  );
});

Deno.test("the OAuth routes take a form body too, as generic OAuth libraries send it", async () => {
  await using t = await testApp();
  const response = await t.request("/trakt/oauth/device/code", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `client_id=${CLIENT}`,
  });
  assert.equal(response.status, 200);
  assert.equal((await response.json()).interval, 5);
});

Deno.test("the consent page names the user's own app, and says why when the redirect URI is not registered", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const app = await (await t.request(
    "/api/trakt/apps",
    post({ name: "Sync <Hub>", redirectUris: ["https://hub.example/cb"] }, u.headers),
  )).json();
  // The page reads the session from its cookie, as every page does.
  const cookie = sessionCookie(u.token, u.email);
  const page = await t.request(
    `/trakt/oauth/authorize?response_type=code&client_id=${app.clientId}&redirect_uri=${
      encodeURIComponent("https://hub.example/cb")
    }&state=z`,
    { headers: { cookie } },
  );
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /<strong>Sync &lt;Hub>/);
  const bad = await t.request(
    `/trakt/oauth/authorize?response_type=code&client_id=${app.clientId}&redirect_uri=https%3A%2F%2Fevil.example%2F`,
    { headers: { cookie } },
  );
  assert.equal(bad.status, 400);
  assert.match(await bad.text(), /not registered/);
  const signedOut = await t.request(`/trakt/oauth/authorize?client_id=${app.clientId}`);
  assert.equal(signedOut.status, 200);
  assert.match(await signedOut.text(), /Sign in/);
});
