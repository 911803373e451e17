/**
 * Trakt sign-ins end with the account's password and with the account (docs/trakt.md,
 * "Sign-in"): a password change kills every app's access and refresh tokens (personal tokens
 * stay, docs/identity.md); deleting the account removes apps and sign-ins. Both stores.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";

const JSON_V = { "content-type": "application/json", "x-supabase-api-version": "2024-01-01" };
const PASSWORD = "popcorn-matinee-42";
const CLIENT = "d".repeat(64);

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return {
    path,
    init: {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    },
  };
}

async function send(t: TestApp, { path, init }: ReturnType<typeof post>) {
  const response = await t.request(path, init);
  return { status: response.status, body: await response.json().catch(() => null) };
}

/** A signed-up user's session token. */
async function session(t: TestApp, email: string): Promise<string> {
  assert.equal(
    (await send(t, post("/api/auth/signup", { email, password: PASSWORD }))).status,
    201,
  );
  const signedIn = await t.request("/auth/v1/token?grant_type=password", {
    method: "POST",
    headers: JSON_V,
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  assert.equal(signedIn.status, 200);
  return (await signedIn.json()).access_token;
}

/** A Trakt sign-in of the user by the device flow. */
async function traktTokens(t: TestApp, bearer: string, clientId = CLIENT) {
  const codes = (await send(t, post("/trakt/oauth/device/code", { client_id: clientId }))).body;
  const approved = await send(
    t,
    post("/api/trakt/activate", { code: codes.user_code, approve: true }, {
      authorization: `Bearer ${bearer}`,
    }),
  );
  assert.equal(approved.status, 200);
  const granted = await send(
    t,
    post("/trakt/oauth/device/token", { code: codes.device_code, client_id: clientId }),
  );
  assert.equal(granted.status, 200);
  return granted.body;
}

async function traktStatus(t: TestApp, token: string, clientId = CLIENT): Promise<number> {
  const response = await t.request("/trakt/users/settings", {
    headers: { authorization: `Bearer ${token}`, "trakt-api-key": clientId },
  });
  await response.body?.cancel();
  return response.status;
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a password change ends every Trakt sign-in of the user (access and refresh), personal tokens stay`, async () => {
    await using t = await testApp({ engine });
    const bearer = await session(t, `pw-${crypto.randomUUID()}@example.com`);
    const other = await session(t, `other-${crypto.randomUUID()}@example.com`);
    const mine = await traktTokens(t, bearer);
    const theirs = await traktTokens(t, other);
    const personal = await send(
      t,
      post("/api/tokens", { name: "script", scope: "read" }, { authorization: `Bearer ${bearer}` }),
    );
    assert.equal(await traktStatus(t, mine.access_token), 200);

    const changed = await t.request("/auth/v1/user", {
      method: "PUT",
      headers: { ...JSON_V, authorization: `Bearer ${bearer}` },
      body: JSON.stringify({ password: "drive-in-double-feature" }),
    });
    assert.equal(changed.status, 200);
    await changed.body?.cancel();

    assert.equal(await traktStatus(t, mine.access_token), 401);
    const refreshed = await send(
      t,
      post("/trakt/oauth/token", {
        grant_type: "refresh_token",
        refresh_token: mine.refresh_token,
        client_id: CLIENT,
      }),
    );
    assert.equal(refreshed.status, 401);
    assert.equal(await traktStatus(t, personal.body.token), 200);
    // Another user's sign-in is untouched.
    assert.equal(await traktStatus(t, theirs.access_token), 200);
  });

  Deno.test(`[${engine}] deleting the account removes its apps and Trakt sign-ins`, async () => {
    await using t = await testApp({ engine });
    const bearer = await session(t, `leaving-${crypto.randomUUID()}@example.com`);
    // A client id of this test alone, so the count below sees only this user's sign-in.
    const clientId = crypto.randomUUID();
    const tokens = await traktTokens(t, bearer, clientId);
    const app = await send(
      t,
      post("/api/trakt/apps", { name: "Mine", redirectUris: [] }, {
        authorization: `Bearer ${bearer}`,
      }),
    );
    assert.equal(app.status, 201);
    const deleted = await t.request("/api/account", {
      method: "DELETE",
      headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
      body: JSON.stringify({ confirm: "delete my account" }),
    });
    assert.equal(deleted.status, 204);
    assert.equal(await traktStatus(t, tokens.access_token, clientId), 401);
    const left = await t.store.query<{ n: number }>(
      `select (select count(*) from public.trakt_apps where client_id = $1)
            + (select count(*) from public.trakt_authorizations where client_id = $2) as n`,
      [app.body.clientId, clientId],
    );
    assert.equal(Number(left[0].n), 0);
  });
}
