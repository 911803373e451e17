/** The built-in provider's logout: it ends the session, by scope, and only with a live session. */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { signIn, signUp, token, VERSIONED } from "./helpers/auth_requests.ts";

Deno.test("logout revokes the session: its refresh token and access token stop working", async () => {
  await using t = await testApp();
  await signUp(t, "logout@example.com", "popcorn-matinee-42");
  const session = await signIn(t, "logout@example.com", "popcorn-matinee-42");
  const auth = { ...VERSIONED, authorization: `Bearer ${session.access_token}` };
  const me = await t.request("/auth/v1/user", { headers: auth });
  assert.equal(me.status, 200);
  assert.equal((await me.json()).email, "logout@example.com");

  const out = await t.request("/auth/v1/logout?scope=global", { method: "POST", headers: auth });
  assert.equal(out.status, 204);

  const refresh = await token(t, "refresh_token", { refresh_token: session.refresh_token });
  assert.equal(refresh.status, 400);
  assert.equal((await refresh.json()).code, "refresh_token_not_found");
  const user = await t.request("/auth/v1/user", { headers: auth });
  assert.equal(user.status, 403);
  assert.equal((await user.json()).code, "session_not_found");
  const count = await t.store.query<{ n: number }>("select count(*)::int as n from auth.sessions");
  assert.equal(count[0].n, 0);
});

Deno.test("logout scope local ends only this session, global ends them all", async () => {
  await using t = await testApp();
  await signUp(t, "devices@example.com", "popcorn-matinee-42");
  const phone = await signIn(t, "devices@example.com", "popcorn-matinee-42");
  const laptop = await signIn(t, "devices@example.com", "popcorn-matinee-42");
  const tablet = await signIn(t, "devices@example.com", "popcorn-matinee-42");
  const bearer = (s: { access_token: string }) => ({ authorization: `Bearer ${s.access_token}` });
  const status = async (s: { access_token: string }) => {
    const res = await t.request("/api/mylist", { headers: bearer(s) });
    await res.body?.cancel();
    return res.status;
  };

  await t.request("/auth/v1/logout?scope=local", { method: "POST", headers: bearer(phone) });
  assert.deepEqual([await status(phone), await status(laptop), await status(tablet)], [
    401,
    200,
    200,
  ]);
  await t.request("/auth/v1/logout", { method: "POST", headers: bearer(laptop) });
  assert.deepEqual([await status(laptop), await status(tablet)], [401, 401]);
});

Deno.test("an ended session's access token cannot log the user out of the live ones (403)", async () => {
  await using t = await testApp();
  await signUp(t, "stolen@example.com", "popcorn-matinee-42");
  const copied = await signIn(t, "stolen@example.com", "popcorn-matinee-42");
  const owner = await signIn(t, "stolen@example.com", "popcorn-matinee-42");
  const bearer = (s: { access_token: string }) => ({
    ...VERSIONED,
    authorization: `Bearer ${s.access_token}`,
  });
  const out = await t.request("/auth/v1/logout?scope=local", {
    method: "POST",
    headers: bearer(copied),
  });
  assert.equal(out.status, 204);

  // The ended session's token, though its signature is still good, is GoTrue's 403.
  const replay = await t.request("/auth/v1/logout?scope=global", {
    method: "POST",
    headers: bearer(copied),
  });
  assert.equal(replay.status, 403);
  assert.equal((await replay.json()).code, "session_not_found");
  const mine = await t.request("/api/mylist", { headers: bearer(owner) });
  assert.equal(mine.status, 200, "the live session survives");
  await mine.body?.cancel();
});
