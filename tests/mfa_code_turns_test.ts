/** A challenge's 5 codes under parallel requests, and a code used twice within its 30 s. */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { signIn } from "./helpers/auth_requests.ts";
import { answer, codeAt, enrolled, gotrue, passwordSession } from "./helpers/mfa.ts";
import { ENGINES, testDatabaseUrl } from "./helpers/store.ts";
import { codeMessage } from "@/lib/web/auth_messages.ts";
import { CODE_ALREADY_USED } from "@/lib/identity/mfa/service.ts";

for (const engine of ENGINES) {
  Deno.test(`[${engine}] 20 wrong codes sent at once to one challenge: 5 are checked, the other 15 find it ended`, async () => {
    // On PostgreSQL the counts live in the store too (COORDINATION=postgres), as on a cluster.
    const env: Record<string, string> = engine === "postgres"
      ? { COORDINATION: "postgres", DATABASE_URL: await testDatabaseUrl() }
      : {};
    await using t = await testApp({ engine, env });
    // The PostgreSQL database may outlive a run: an address of this run's own.
    const { token } = await passwordSession(
      t,
      `turns-${crypto.randomUUID().slice(0, 8)}@example.com`,
    );
    const { factorId, secret, aal2 } = await enrolled(t, token);
    t.clock.advance(90_000);
    const session = aal2.access_token;
    const challenge = await (await gotrue(t, `/factors/${factorId}/challenge`, session, {
      body: {},
    })).json();
    const right = codeAt(secret, t.clock.now());
    const wrong = right === "000000" ? "111111" : "000000";
    const answers = await Promise.all(Array.from({ length: 20 }, async () => {
      const res = await gotrue(t, `/factors/${factorId}/verify`, session, {
        body: { challenge_id: challenge.id, code: wrong },
      });
      return `${res.status} ${(await res.json()).code}`;
    }));
    const checked = answers.filter((a) => a === "422 mfa_verification_failed").length;
    const ended = answers.filter((a) => a === "422 mfa_factor_not_found").length;
    assert.deepEqual([checked, ended], [5, 15], answers.join(", "));
    // The challenge is over: even the right code is not checked on it.
    const late = await gotrue(t, `/factors/${factorId}/verify`, session, {
      body: { challenge_id: challenge.id, code: right },
    });
    assert.equal(late.status, 422);
    assert.equal((await late.json()).code, "mfa_factor_not_found");
  });
}

Deno.test("a right code used again within its 30 s is refused as just used, and the code step says to wait for the next one", async () => {
  await using t = await testApp();
  const { token, email, password } = await passwordSession(t);
  const { factorId, secret } = await enrolled(t, token);
  // Signing in again at once, with the code the authenticator app still shows.
  const again = await signIn(t, email, password);
  const res = await answer(t, again.access_token, factorId, codeAt(secret, t.clock.now()));
  assert.equal(res.status, 422);
  const body = await res.json();
  assert.deepEqual([body.code, body.message], [
    "mfa_verification_failed",
    CODE_ALREADY_USED,
  ]);
  assert.equal(
    codeMessage(body.code, body.message),
    "That code was just used. Wait for the next code in your app, then enter it.",
  );
  // A wrong code still reads as wrong.
  const wrongCode = codeAt(secret, t.clock.now()) === "000000" ? "111111" : "000000";
  const wrong = await (await answer(t, again.access_token, factorId, wrongCode)).json();
  assert.equal(
    codeMessage(wrong.code, wrong.message),
    "That code is not right. Try the current one.",
  );
  // The next step's code is taken.
  t.clock.advance(30_000);
  const next = await answer(t, again.access_token, factorId, codeAt(secret, t.clock.now()));
  assert.equal(next.status, 200);
  await next.body?.cancel();
});
