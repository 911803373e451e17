/**
 * The password rule (contract section 14): today's length rules plus a zxcvbn score of at least
 * 3 of 4 with the email's local part as a guessable word, at signup, change and reset.
 */
import assert from "node:assert/strict";
import { newPasswordFault, passwordStrengthFault } from "../lib/auth/password_rule.ts";
import { emailInputs } from "../lib/auth/strength.ts";
import { testApp } from "./helpers/app.ts";

const WEAK = ["password", "12345678", "        ", "qwertyuiop", "iloveyou1"];

Deno.test("the estimator refuses common passwords and accepts long unusual ones", async () => {
  for (const password of WEAK) {
    const fault = await newPasswordFault(password, { email: "a@example.com" });
    assert.equal(fault?.kind, "weak", JSON.stringify(password));
  }
  for (const password of ["correct horse battery", "popcorn-matinee-42", "éàüöq7Zk!"]) {
    assert.equal(await newPasswordFault(password, { email: "a@example.com" }), null, password);
  }
  assert.equal((await newPasswordFault("short", { email: "a@example.com" }))?.kind, "too_short");
  assert.equal((await newPasswordFault("é".repeat(37), { email: "a@b.co" }))?.kind, "too_long");
});

Deno.test("the email's local part counts as a word a guesser tries first", async () => {
  assert.deepEqual(emailInputs(" Jane.Moviefan+films@Example.com"), [
    "jane.moviefan+films",
    "jane",
    "moviefan",
    "films",
  ]);
  const password = "Moviefan2026!";
  assert.equal(await passwordStrengthFault(password, { email: "someone@example.com" }), null);
  const fault = await passwordStrengthFault(password, { email: "jane.moviefan@example.com" });
  assert.equal(fault?.kind, "weak");
});

Deno.test("POST /api/auth/signup with a weak password answers 400 weak_password with the estimator's advice", async () => {
  await using t = await testApp();
  for (const password of WEAK) {
    const res = await t.request("/api/auth/signup", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "weak@example.com", password }),
    });
    assert.equal(res.status, 400, JSON.stringify(password));
    const body = await res.json();
    assert.equal(body.code, "weak_password");
    assert.match(body.detail, /too easy to guess\. .+/);
  }
  const [row] = await t.store.query<{ n: number }>("select count(*)::int as n from auth.users");
  assert.equal(row.n, 0);
});
