/**
 * A password reset by a user with a verified second factor (docs/identity.md): the mailed link
 * gives an aal1 session, so setting the new password is refused (403 `mfa_required`) until a
 * code raises it to aal2; then the password is set and the old one is refused. The website's
 * /reset-password asks for that code (tests/browser_reset_mfa_test.ts).
 */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { resetMailsSettled } from "../lib/identity/auth/password_reset.ts";
import { testApp } from "./helpers/app.ts";
import { signIn, token, VERSIONED } from "./helpers/auth_requests.ts";
import { answer, claimsOf, codeAt, enrolled, gotrue, passwordSession } from "./helpers/mfa.ts";

const NEW_PASSWORD = "lantern meadow quietly 7";

Deno.test("a reset with a verified factor is aal1: the new password needs a code first", async () => {
  const clock = new FakeClock();
  await using t = await testApp({ clock });
  const { email, password, token: first } = await passwordSession(t, "reset-two@example.com");
  const { factorId, secret } = await enrolled(t, first);

  const recover = await t.request("/auth/v1/recover", {
    method: "POST",
    headers: VERSIONED,
    body: JSON.stringify({ email }),
  });
  assert.equal(recover.status, 200);
  await recover.body?.cancel();
  await resetMailsSettled(t.deps);
  // Without SMTP the link is logged once for the operator.
  const link = String(t.logs.find((l) => l.event === "password_reset_link")?.link ?? "");
  const tokenHash = new URL(link).searchParams.get("token_hash");
  assert.ok(tokenHash, link);

  const verified = await t.request("/auth/v1/verify", {
    method: "POST",
    headers: VERSIONED,
    body: JSON.stringify({ type: "recovery", token_hash: tokenHash }),
  });
  assert.equal(verified.status, 200);
  const recovery = await verified.json();
  assert.equal(claimsOf(recovery.access_token).aal, "aal1");

  const refused = await gotrue(t, "/user", recovery.access_token, {
    method: "PUT",
    body: { password: NEW_PASSWORD },
  });
  assert.equal(refused.status, 403);
  assert.equal((await refused.json()).code, "mfa_required");

  // A step later, so the code is not the one the enrolment spent.
  clock.advance(30_000);
  const raised = await answer(t, recovery.access_token, factorId, codeAt(secret, clock.now()));
  assert.equal(raised.status, 200);
  const aal2 = await raised.json();
  assert.equal(claimsOf(aal2.access_token).aal, "aal2");
  const set = await gotrue(t, "/user", aal2.access_token, {
    method: "PUT",
    body: { password: NEW_PASSWORD },
  });
  assert.equal(set.status, 200, await set.clone().text());
  await set.body?.cancel();

  const old = await token(t, "password", { email, password });
  assert.equal(old.status, 400);
  await old.body?.cancel();
  const again = await signIn(t, email, NEW_PASSWORD);
  assert.equal(claimsOf(again.access_token).aal, "aal1", "a new sign-in asks for the code again");
});
