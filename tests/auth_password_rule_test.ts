/**
 * The password rule (docs/identity.md): today's length rules plus a zxcvbn score of at least
 * 2 of 4 with the email's local part as a guessable word, at signup, change and reset.
 */
import assert from "node:assert/strict";
import { newPasswordFault, passwordStrengthFault } from "../lib/identity/auth/password_rule.ts";
import { emailInputs, MIN_SCORE, strengthWords } from "../lib/identity/auth/strength.ts";
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
    "janemoviefanfilms",
    "filmsmoviefanjane",
  ]);
  const password = "moviefan2026";
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

Deno.test("random 8-character passwords pass, so 'at least 8 characters' holds", async () => {
  // A fixed generator, so the test is the same on every run: 200 passwords of 8 characters from
  // a 70-symbol alphabet; a score of 3 refused every one of them.
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#$%^&*";
  let seed = 31;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % alphabet.length;
  let refused = 0;
  for (let i = 0; i < 200; i++) {
    const password = Array.from({ length: 8 }, () => alphabet[next()]).join("");
    if (await newPasswordFault(password, { email: "a@example.com" })) refused++;
  }
  assert.ok(refused <= 2, `${refused} of 200 random 8-character passwords refused`);
});

Deno.test("a password of the email's name pieces joined is refused (lenabrandt1 for lena.brandt@)", async () => {
  for (const password of ["lenabrandt1", "Lenabrandt1!", "brandtlena1", "lenabrandt2026"]) {
    const fault = await passwordStrengthFault(password, { email: "lena.brandt@example.com" });
    assert.equal(fault?.kind, "weak", password);
  }
  // Only the email makes it weak: for someone else it passes.
  assert.equal(await passwordStrengthFault("lenabrandt1", { email: "x@example.com" }), null);
});

Deno.test("the meter's words agree with the rule: refused scores say so, accepted ones never do", () => {
  for (let score = 0; score <= 4; score++) {
    const words = strengthWords(score);
    assert.equal(words.accepted, score >= MIN_SCORE, String(score));
    assert.equal(/too easy to guess/.test(words.text), !words.accepted, words.text);
  }
  assert.equal(strengthWords(2).text, "Fair — good enough; a longer one is safer.");
  assert.equal(strengthWords(1).text, "Weak — too easy to guess.");
});
