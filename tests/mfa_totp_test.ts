/** Two-factor codes in Supabase Auth's /factors format: enrol, verify to aal2, reuse, drift, lockout, aal2 guards. */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { signIn, token as grant, VERSIONED } from "./helpers/auth_requests.ts";
import { answer, claimsOf, codeAt, enrolled, gotrue, passwordSession } from "./helpers/mfa.ts";
import { problem } from "./helpers/problems.ts";

const DELETE_BODY = JSON.stringify({ confirm: "delete my account" });

Deno.test("POST /auth/v1/factors enrols a TOTP factor: GoTrue's shape with an SVG QR code, the secret and the otpauth URI", async () => {
  await using t = await testApp({ env: { SITE_URL: "https://movies.example" } });
  const { token, email } = await passwordSession(t);
  const res = await gotrue(t, "/factors", token, {
    body: { factor_type: "totp", friendly_name: "Phone" },
  });
  assert.equal(res.status, 200);
  const body = await res.json();
  // GoTrue's keys, and this site's backup codes (tests/mfa_backup_codes_test.ts).
  assert.deepEqual(Object.keys(body).sort(), [
    "backup_codes",
    "friendly_name",
    "id",
    "totp",
    "type",
  ]);
  assert.equal(body.type, "totp");
  assert.equal(body.friendly_name, "Phone");
  assert.match(body.totp.qr_code, /^<svg[\s\S]*<\/svg>\s*$/);
  assert.match(body.totp.secret, /^[A-Z2-7]{32}$/);
  const uri = new URL(body.totp.uri);
  assert.ok(
    body.totp.uri.startsWith(`otpauth://totp/movies.example:${encodeURIComponent(email)}?`),
    body.totp.uri,
  );
  assert.equal(uri.searchParams.get("secret"), body.totp.secret);
  assert.equal(uri.searchParams.get("issuer"), "movies.example");
  const user = await (await gotrue(t, "/user", token, { method: "GET" })).json();
  assert.deepEqual(
    user.factors.map((
      f: { id: string; status: string; factor_type: string },
    ) => [f.id, f.status, f.factor_type]),
    [[body.id, "unverified", "totp"]],
  );
});

Deno.test("a right code answers the challenge with an aal2 session; the factor is verified and listed on the user", async () => {
  await using t = await testApp();
  const { token } = await passwordSession(t);
  assert.equal(claimsOf(token).aal, "aal1");
  const { aal2, factorId } = await enrolled(t, token);
  assert.equal(aal2.token_type, "bearer");
  const claims = claimsOf(aal2.access_token);
  assert.equal(claims.aal, "aal2");
  assert.deepEqual((claims.amr as { method: string }[]).map((m) => m.method), ["totp", "password"]);
  assert.equal(claims.session_id, claimsOf(token).session_id);
  assert.deepEqual(aal2.user.factors.map((f: { id: string; status: string }) => [f.id, f.status]), [
    [factorId, "verified"],
  ]);
  // The session stays aal2 across a refresh.
  const refreshed = await (await grant(t, "refresh_token", { refresh_token: aal2.refresh_token }))
    .json();
  assert.equal(claimsOf(refreshed.access_token).aal, "aal2");
});

Deno.test("a code is accepted once: the same code on a new challenge is 422 mfa_verification_failed", async () => {
  await using t = await testApp();
  const { token } = await passwordSession(t);
  const { factorId, secret, aal2 } = await enrolled(t, token);
  const code = codeAt(secret, t.clock.now());
  const again = await answer(t, aal2.access_token, factorId, code);
  assert.equal(again.status, 422);
  assert.equal((await again.json()).code, "mfa_verification_failed");
});

Deno.test("one 30 s step of drift either side is accepted, two are not", async () => {
  await using t = await testApp();
  const clock = t.clock;
  const { token } = await passwordSession(t);
  const { factorId, secret, aal2 } = await enrolled(t, token);
  const session = aal2.access_token;
  clock.advance(120_000);
  const now = clock.now();
  for (const offset of [-60_000, 60_000]) {
    const res = await answer(t, session, factorId, codeAt(secret, now + offset));
    assert.equal(res.status, 422, `offset ${offset}`);
    await res.body?.cancel();
  }
  const behind = await answer(t, session, factorId, codeAt(secret, now - 30_000));
  assert.equal(behind.status, 200, "one step behind");
  await behind.body?.cancel();
  const ahead = await answer(t, session, factorId, codeAt(secret, now + 30_000));
  assert.equal(ahead.status, 200, "one step ahead");
  await ahead.body?.cancel();
});

Deno.test("five wrong codes end the challenge: even the right code is refused after them", async () => {
  await using t = await testApp();
  const { token } = await passwordSession(t);
  const { factorId, secret, aal2 } = await enrolled(t, token);
  t.clock.advance(90_000);
  const session = aal2.access_token;
  const challenge = await (await gotrue(t, `/factors/${factorId}/challenge`, session, { body: {} }))
    .json();
  assert.ok(challenge.expires_at > t.clock.now() / 1000);
  const right = codeAt(secret, t.clock.now());
  const wrong = right === "000000" ? "111111" : "000000";
  for (let i = 1; i <= 5; i++) {
    const res = await gotrue(t, `/factors/${factorId}/verify`, session, {
      body: { challenge_id: challenge.id, code: wrong },
    });
    assert.equal(res.status, 422, `wrong code ${i}`);
    assert.equal((await res.json()).code, "mfa_verification_failed");
  }
  const late = await gotrue(t, `/factors/${factorId}/verify`, session, {
    body: { challenge_id: challenge.id, code: right },
  });
  assert.equal(late.status, 422);
  assert.equal((await late.json()).code, "mfa_factor_not_found");
  // A new challenge takes the right code.
  const fresh = await answer(t, session, factorId, right);
  assert.equal(fresh.status, 200);
  await fresh.body?.cancel();
});

Deno.test("a challenge expires after 5 minutes: 422 mfa_challenge_expired", async () => {
  await using t = await testApp();
  const { token } = await passwordSession(t);
  const { factorId, secret, aal2 } = await enrolled(t, token);
  const challenge =
    await (await gotrue(t, `/factors/${factorId}/challenge`, aal2.access_token, { body: {} }))
      .json();
  t.clock.advance(300_001);
  const res = await gotrue(t, `/factors/${factorId}/verify`, aal2.access_token, {
    body: { challenge_id: challenge.id, code: codeAt(secret, t.clock.now()) },
  });
  assert.equal(res.status, 422);
  assert.equal((await res.json()).code, "mfa_challenge_expired");
});

Deno.test("with a verified factor, a password sign-in is aal1 and password change and account deletion answer 403 mfa_required until a code raises it", async () => {
  await using t = await testApp();
  const { token, email, password } = await passwordSession(t);
  const { factorId, secret } = await enrolled(t, token);
  t.clock.advance(60_000);
  const later = await signIn(t, email, password);
  assert.equal(claimsOf(later.access_token).aal, "aal1");
  const aal1 = { authorization: `Bearer ${later.access_token}` };
  const change = await t.request("/auth/v1/user", {
    method: "PUT",
    headers: { ...VERSIONED, ...aal1 },
    body: JSON.stringify({ password: "another-matinee-77" }),
  });
  assert.equal(change.status, 403);
  assert.equal((await change.json()).code, "mfa_required");
  // Nor any other change of the user: the session reaches only the code step, the user and sign-out.
  const meta = await t.request("/auth/v1/user", {
    method: "PUT",
    headers: { ...VERSIONED, ...aal1 },
    body: JSON.stringify({ data: { theme: "dark" } }),
  });
  assert.equal(meta.status, 403);
  assert.equal((await meta.json()).code, "mfa_required");
  await problem(
    await t.request("/api/account", {
      method: "DELETE",
      headers: { ...aal1, "content-type": "application/json" },
      body: DELETE_BODY,
    }),
    403,
    "mfa_required",
  );
  const raised =
    await (await answer(t, later.access_token, factorId, codeAt(secret, t.clock.now()))).json();
  const aal2 = { authorization: `Bearer ${raised.access_token}` };
  const changed = await t.request("/auth/v1/user", {
    method: "PUT",
    headers: { ...VERSIONED, ...aal2 },
    body: JSON.stringify({ password: "another-matinee-77" }),
  });
  assert.equal(changed.status, 200);
  await changed.body?.cancel();
  const deleted = await t.request("/api/account", {
    method: "DELETE",
    headers: { ...aal2, "content-type": "application/json" },
    body: DELETE_BODY,
  });
  assert.equal(deleted.status, 204);
});

Deno.test("verifying a code ends the user's other sessions that were only a password away", async () => {
  await using t = await testApp();
  const { token, email, password } = await passwordSession(t);
  const other = await signIn(t, email, password);
  await enrolled(t, token);
  const res = await gotrue(t, "/user", other.access_token, { method: "GET" });
  assert.equal(res.status, 403);
  assert.equal((await res.json()).code, "session_not_found");
});

Deno.test("unenrolling a verified factor needs aal2 (422 insufficient_aal); then sensitive routes need no code", async () => {
  await using t = await testApp();
  const { token, email, password } = await passwordSession(t);
  const { factorId, aal2 } = await enrolled(t, token);
  const later = await signIn(t, email, password);
  const refused = await gotrue(t, `/factors/${factorId}`, later.access_token, { method: "DELETE" });
  assert.equal(refused.status, 422);
  assert.equal((await refused.json()).code, "insufficient_aal");
  const gone = await gotrue(t, `/factors/${factorId}`, aal2.access_token, { method: "DELETE" });
  assert.equal(gone.status, 200);
  assert.deepEqual(await gone.json(), { id: factorId });
  const user = await (await gotrue(t, "/user", later.access_token, { method: "GET" })).json();
  assert.equal(user.factors, undefined);
  const deleted = await t.request("/api/account", {
    method: "DELETE",
    headers: { authorization: `Bearer ${later.access_token}`, "content-type": "application/json" },
    body: DELETE_BODY,
  });
  assert.equal(deleted.status, 204);
});

Deno.test("a second factor at aal1 is refused (403 insufficient_aal); another user's factor is 404 mfa_factor_not_found", async () => {
  await using t = await testApp();
  const { token, email, password } = await passwordSession(t);
  const { factorId } = await enrolled(t, token);
  const later = await signIn(t, email, password);
  const second = await gotrue(t, "/factors", later.access_token, { body: { factor_type: "totp" } });
  assert.equal(second.status, 403);
  assert.equal((await second.json()).code, "insufficient_aal");
  const stranger = await passwordSession(t, "stranger@example.com");
  for (const path of [`/factors/${factorId}/challenge`, `/factors/not-a-uuid/challenge`]) {
    const res = await gotrue(t, path, stranger.token, { body: {} });
    assert.equal(res.status, 404, path);
    assert.equal((await res.json()).code, "mfa_factor_not_found");
  }
  const phone = await gotrue(t, "/factors", stranger.token, { body: { factor_type: "phone" } });
  assert.equal(phone.status, 400);
  await phone.body?.cancel();
});

Deno.test("codes, secrets and tokens of the two-factor routes never reach the logs", async () => {
  await using t = await testApp();
  const { token } = await passwordSession(t);
  const enroll = await (await gotrue(t, "/factors", token, { body: { factor_type: "totp" } }))
    .json();
  const code = codeAt(enroll.totp.secret, t.clock.now());
  const ok = await (await answer(t, token, enroll.id, code)).json();
  const wrong = await answer(t, ok.access_token, enroll.id, code);
  await wrong.body?.cancel();
  const text = JSON.stringify(t.logs);
  assert.ok(t.logs.length > 0);
  for (const secret of [enroll.totp.secret, code, ok.access_token, ok.refresh_token, token]) {
    assert.ok(!text.includes(secret), "a secret was logged");
  }
});
