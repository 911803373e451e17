/**
 * The built-in provider's sessions: GoTrue's token response, refresh rotation, reuse revocation.
 */
import assert from "node:assert/strict";
import { hashToken, REUSE_INTERVAL_MS } from "../lib/identity/auth/sessions.ts";
import { FakeClock } from "../lib/core/clock.ts";
import { testApp } from "./helpers/app.ts";
import { signIn, signUp, token } from "./helpers/auth_requests.ts";

Deno.test("the password grant answers GoTrue's AccessTokenResponse, never the hash", async () => {
  const clock = new FakeClock();
  await using t = await testApp({ clock });
  const id = await signUp(t, "shape@example.com", "popcorn-matinee-42");
  const res = await token(t, "password", {
    email: " Shape@Example.com ",
    password: "popcorn-matinee-42",
  });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const body = await res.json();
  assert.deepEqual(
    Object.keys(body).sort(),
    ["access_token", "expires_at", "expires_in", "refresh_token", "token_type", "user"],
  );
  assert.equal(body.token_type, "bearer");
  assert.equal(body.expires_in, 3600);
  assert.equal(body.expires_at, Math.floor(clock.now() / 1000) + 3600);
  assert.equal(body.user.id, id);
  assert.equal(body.user.email, "shape@example.com");
  assert.equal(body.user.aud, "authenticated");
  assert.equal(body.user.role, "authenticated");
  assert.deepEqual(body.user.app_metadata, { provider: "email", providers: ["email"] });
  assert.equal(body.user.last_sign_in_at, new Date(clock.now()).toISOString());
  assert.equal(body.user.identities[0].provider, "email");
  assert.doesNotMatch(JSON.stringify(body), /\$2[aby]\$/);
  const claims = JSON.parse(
    atob(body.access_token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")),
  );
  assert.equal(claims.sub, id);
  assert.equal(claims.aud, "authenticated");
  assert.equal(claims.iss, `${t.config.siteUrl}/auth/v1`);
  assert.equal(typeof claims.session_id, "string");
  const [row] = await t.store.query<{ encrypted_password: string }>(
    "select encrypted_password from auth.users where id = $1",
    [id],
  );
  assert.match(row.encrypted_password, /^\$2[aby]\$10\$/, "bcrypt, cost 10");
});

Deno.test("refresh tokens are stored hashed and rotate; reusing a rotated one revokes the session", async () => {
  await using t = await testApp();
  await signUp(t, "rotate@example.com", "popcorn-matinee-42");
  const first = await signIn(t, "rotate@example.com", "popcorn-matinee-42");

  const stored = await t.store.query<{ token: string }>("select token from auth.refresh_tokens");
  assert.equal(stored.length, 1);
  assert.notEqual(stored[0].token, first.refresh_token);
  assert.equal(stored[0].token, await hashToken(first.refresh_token));

  const second = await (await token(t, "refresh_token", { refresh_token: first.refresh_token }))
    .json();
  assert.equal(typeof second.access_token, "string");
  assert.notEqual(second.refresh_token, first.refresh_token);
  const third = await (await token(t, "refresh_token", { refresh_token: second.refresh_token }))
    .json();
  assert.notEqual(third.refresh_token, second.refresh_token);
  const ok = await t.request("/api/watched", {
    headers: { authorization: `Bearer ${third.access_token}` },
  });
  assert.equal(ok.status, 200);
  await ok.body?.cancel();

  // Someone replays the first (rotated) token after the reuse interval: the whole session ends.
  t.clock.advance(REUSE_INTERVAL_MS + 1);
  const replay = await token(t, "refresh_token", { refresh_token: first.refresh_token });
  assert.equal(replay.status, 400);
  assert.deepEqual(await replay.json(), {
    code: "refresh_token_already_used",
    message: "Invalid Refresh Token: Already Used",
  });
  const latest = await token(t, "refresh_token", { refresh_token: third.refresh_token });
  assert.equal(latest.status, 400);
  assert.equal((await latest.json()).code, "refresh_token_not_found");
  const api = await t.request("/api/watched", {
    headers: { authorization: `Bearer ${third.access_token}` },
  });
  assert.equal(api.status, 401);
  await api.body?.cancel();
});

Deno.test("rotated refresh tokens are forgotten after 30 days; the live one keeps working", async () => {
  const clock = new FakeClock();
  await using t = await testApp({ clock });
  await signUp(t, "longlived@example.com", "popcorn-matinee-42");
  let session = await signIn(t, "longlived@example.com", "popcorn-matinee-42");
  for (let i = 0; i < 3; i++) {
    session = await (await token(t, "refresh_token", { refresh_token: session.refresh_token }))
      .json();
  }
  const rows = () =>
    t.store.query<{ n: number }>("select count(*)::int as n from auth.refresh_tokens");
  assert.equal((await rows())[0].n, 4);
  clock.advance(31 * 86_400_000);
  const later = await token(t, "refresh_token", { refresh_token: session.refresh_token });
  assert.equal(later.status, 200);
  await later.body?.cancel();
  assert.equal((await rows())[0].n, 2, "the one just rotated and its child");
});

function sessionIdOf(accessToken: string): string {
  const payload = accessToken.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(atob(payload)).session_id;
}

Deno.test("two refreshes of one token at once both answer the same session (reuse interval)", async () => {
  const clock = new FakeClock();
  await using t = await testApp({ clock });
  await signUp(t, "tabs@example.com", "popcorn-matinee-42");
  const first = await signIn(t, "tabs@example.com", "popcorn-matinee-42");
  const [a, b] = await Promise.all([
    token(t, "refresh_token", { refresh_token: first.refresh_token }),
    token(t, "refresh_token", { refresh_token: first.refresh_token }),
  ]);
  assert.equal(a.status, 200);
  assert.equal(b.status, 200);
  const [tabA, tabB] = [await a.json(), await b.json()];
  assert.equal(sessionIdOf(tabA.access_token), sessionIdOf(first.access_token));
  assert.equal(sessionIdOf(tabB.access_token), sessionIdOf(first.access_token));
  // Each tab goes on refreshing with what it got; neither was signed out.
  for (const tab of [tabA, tabB]) {
    const next = await token(t, "refresh_token", { refresh_token: tab.refresh_token });
    assert.equal(next.status, 200);
    await next.body?.cancel();
  }
});

Deno.test("a rotated token presented again at the end of the interval still answers; after it, it revokes", async () => {
  const clock = new FakeClock();
  await using t = await testApp({ clock });
  await signUp(t, "edge@example.com", "popcorn-matinee-42");
  const first = await signIn(t, "edge@example.com", "popcorn-matinee-42");
  const child = await (await token(t, "refresh_token", { refresh_token: first.refresh_token }))
    .json();
  clock.advance(REUSE_INTERVAL_MS);
  const again = await token(t, "refresh_token", { refresh_token: first.refresh_token });
  assert.equal(again.status, 200);
  const sibling = await again.json();
  assert.equal(sessionIdOf(sibling.access_token), sessionIdOf(child.access_token));
  // The reuse did not restart the interval: 1 ms later it is a replay and ends the session.
  clock.advance(1);
  const replay = await token(t, "refresh_token", { refresh_token: first.refresh_token });
  assert.equal(replay.status, 400);
  assert.equal((await replay.json()).code, "refresh_token_already_used");
  for (const live of [child, sibling]) {
    const gone = await token(t, "refresh_token", { refresh_token: live.refresh_token });
    assert.equal(gone.status, 400);
    assert.equal((await gone.json()).code, "refresh_token_not_found");
  }
});
