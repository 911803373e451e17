/**
 * Two-factor backup codes (docs/identity.md, "Backup codes"): 10 one-time codes of 10 characters
 * at enrolment, stored hashed, accepted at the code step once each (also under parallel use),
 * replaced at aal2 only, voided with their factor.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "./helpers/app.ts";
import { signIn } from "./helpers/auth_requests.ts";
import { answer, claimsOf, codeAt, gotrue, passwordSession } from "./helpers/mfa.ts";
import { ENGINES, testStore } from "./helpers/store.ts";
import { codeMessage } from "@/lib/web/auth_messages.ts";
import { BACKUP_CODE_REFUSED } from "@/lib/identity/mfa/service.ts";
import { spendBackupCode, storeBackupCodes } from "@/lib/identity/mfa/backup_codes.ts";

const CODE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{10}$/;

/** Enrols and confirms a factor: its id, secret, backup codes and the aal2 session's token. */
async function enrolWithCodes(t: TestApp, token: string) {
  const res = await gotrue(t, "/factors", token, { body: { factor_type: "totp" } });
  assert.equal(res.status, 200);
  const factor = await res.json();
  const ok = await answer(t, token, factor.id, codeAt(factor.totp.secret, t.clock.now()));
  assert.equal(ok.status, 200);
  return {
    factorId: factor.id as string,
    secret: factor.totp.secret as string,
    codes: factor.backup_codes as string[],
    aal2: (await ok.json()).access_token as string,
  };
}

/** A fresh email for this run (the PostgreSQL database outlives runs). */
const email = (what: string) => `${what}-${crypto.randomUUID().slice(0, 8)}@example.com`;

for (const engine of ENGINES) {
  Deno.test(`[${engine}] enrolling a TOTP factor answers 10 distinct backup codes of 10 characters, stored only as hashes`, async () => {
    await using t = await testApp({ engine });
    const { token } = await passwordSession(t, email("codes"));
    const { factorId, codes } = await enrolWithCodes(t, token);
    assert.equal(codes.length, 10);
    for (const code of codes) assert.match(code, CODE);
    assert.equal(new Set(codes).size, 10);
    const rows = await t.store.query<{ code_hash: string }>(
      `select code_hash from public.mfa_backup_codes where factor_id = $1`,
      [factorId],
    );
    assert.equal(rows.length, 10);
    const stored = JSON.stringify(rows);
    for (const code of codes) assert.ok(!stored.includes(code), "a code is stored in clear");
  });

  Deno.test(`[${engine}] a backup code at the code step raises a password session to aal2 once; the same code again is 422`, async () => {
    await using t = await testApp({ engine });
    const { token, email: address, password } = await passwordSession(t, email("use"));
    const { factorId, codes } = await enrolWithCodes(t, token);
    const first = await signIn(t, address, password);
    assert.equal(claimsOf(first.access_token).aal, "aal1");
    // Typed in lower case with a dash, as people copy codes.
    const typed = `${codes[0].slice(0, 5).toLowerCase()}-${codes[0].slice(5)}`;
    const ok = await answer(t, first.access_token, factorId, typed);
    assert.equal(ok.status, 200);
    const raised = await ok.json();
    assert.equal(claimsOf(raised.access_token).aal, "aal2");
    // The raised session reaches what the aal1 one may not.
    for (const [bearer, status] of [[first.access_token, 403], [raised.access_token, 200]]) {
      const lists = await t.request("/api/lists", {
        headers: { authorization: `Bearer ${bearer}` },
      });
      assert.equal(lists.status, status);
      await lists.body?.cancel();
    }

    const again = await signIn(t, address, password);
    const refused = await answer(t, again.access_token, factorId, codes[0]);
    assert.equal(refused.status, 422);
    const body = await refused.json();
    assert.deepEqual([body.code, body.message], ["mfa_verification_failed", BACKUP_CODE_REFUSED]);
    assert.equal(
      codeMessage(body.code, body.message),
      "That backup code is not right or was used already: each works once.",
    );
    // Another code still works.
    const next = await answer(t, again.access_token, factorId, codes[1]);
    assert.equal(next.status, 200);
    await next.body?.cancel();
  });

  Deno.test(`[${engine}] one backup code sent to 10 challenges at once is accepted exactly once`, async () => {
    await using t = await testApp({ engine });
    const { token, email: address, password } = await passwordSession(t, email("race"));
    const { factorId, codes } = await enrolWithCodes(t, token);
    // One aal1 session answering 10 challenges at once: a raised session ends the user's other
    // aal1 sessions, so separate sessions would be refused before their code is even checked.
    const aal1 = (await signIn(t, address, password)).access_token;
    const challenges = await Promise.all(Array.from({ length: 10 }, async () => {
      const res = await gotrue(t, `/factors/${factorId}/challenge`, aal1, { body: {} });
      return (await res.json()).id as string;
    }));
    const statuses = await Promise.all(challenges.map(async (id) => {
      const res = await gotrue(t, `/factors/${factorId}/verify`, aal1, {
        body: { challenge_id: id, code: codes[3] },
      });
      await res.body?.cancel();
      return res.status;
    }));
    assert.deepEqual(
      [statuses.filter((s) => s === 200).length, statuses.filter((s) => s === 422).length],
      [1, 9],
      statuses.join(", "),
    );
  });

  Deno.test(`[${engine}] spending one backup code from 10 parallel calls on the store: one gets its factor`, async () => {
    await using store = await testStore(engine);
    const userId = crypto.randomUUID();
    const factorId = crypto.randomUUID();
    await store.query(
      `insert into auth.users (id, aud, role, email, created_at, updated_at)
       values ($1, 'authenticated', 'authenticated', $2, now(), now())`,
      [userId, email("store")],
    );
    await store.query(
      `insert into auth.mfa_factors (id, user_id, factor_type, status, created_at, updated_at)
       values ($1, $2, 'totp', 'verified', now(), now())`,
      [factorId, userId],
    );
    await storeBackupCodes(store, { userId, factorId, codes: ["ABCDEFGHJK"] }, { now: 0 });
    const spent = await Promise.all(
      Array.from(
        { length: 10 },
        () => spendBackupCode(store, userId, { code: "ABCDEFGHJK", now: 1_000 }),
      ),
    );
    assert.deepEqual(spent.filter((s) => s !== null), [factorId]);
    const [row] = await store.query<{ n: number }>(
      `select count(*)::int as n from public.mfa_backup_codes where user_id = $1 and used_at is null`,
      [userId],
    );
    assert.equal(row.n, 0);
  });

  Deno.test(`[${engine}] POST /auth/v1/factors/:id/backup_codes at aal2 answers 10 new codes and voids the unused old ones; GET counts those left`, async () => {
    await using t = await testApp({ engine });
    const { token, email: address, password } = await passwordSession(t, email("renew"));
    const { factorId, codes, aal2 } = await enrolWithCodes(t, token);
    const used = await answer(
      t,
      (await signIn(t, address, password)).access_token,
      factorId,
      codes[0],
    );
    assert.equal(used.status, 200);
    const session = (await used.json()).access_token;
    const left = await gotrue(t, `/factors/${factorId}/backup_codes`, session, { method: "GET" });
    assert.deepEqual(await left.json(), { remaining: 9 });

    const res = await gotrue(t, `/factors/${factorId}/backup_codes`, aal2, {});
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual(Object.keys(body), ["backup_codes"]);
    assert.equal(body.backup_codes.length, 10);
    for (const code of body.backup_codes) assert.match(code, CODE);
    const after = await gotrue(t, `/factors/${factorId}/backup_codes`, aal2, { method: "GET" });
    assert.deepEqual(await after.json(), { remaining: 10 });

    const aal1 = (await signIn(t, address, password)).access_token;
    const old = await answer(t, aal1, factorId, codes[1]);
    assert.equal(old.status, 422);
    await old.body?.cancel();
    const fresh = await answer(t, aal1, factorId, body.backup_codes[0]);
    assert.equal(fresh.status, 200);
    await fresh.body?.cancel();
  });

  Deno.test(`[${engine}] backup codes at aal1 are 403 mfa_required, and another user's factor is 404`, async () => {
    await using t = await testApp({ engine });
    const { token, email: address, password } = await passwordSession(t, email("aal1"));
    const { factorId } = await enrolWithCodes(t, token);
    const aal1 = (await signIn(t, address, password)).access_token;
    for (const method of ["POST", "GET"]) {
      const res = await gotrue(t, `/factors/${factorId}/backup_codes`, aal1, { method });
      assert.equal(res.status, 403);
      assert.equal((await res.json()).code, "mfa_required");
    }
    const other = await passwordSession(t, email("other"));
    const theirs = await gotrue(t, `/factors/${factorId}/backup_codes`, other.token, {});
    assert.equal(theirs.status, 404);
    assert.equal((await theirs.json()).code, "mfa_factor_not_found");
  });

  Deno.test(`[${engine}] unenrolling the factor voids its backup codes`, async () => {
    await using t = await testApp({ engine });
    const { token } = await passwordSession(t, email("gone"));
    const { factorId, aal2 } = await enrolWithCodes(t, token);
    const off = await gotrue(t, `/factors/${factorId}`, aal2, { method: "DELETE" });
    assert.equal(off.status, 200);
    await off.body?.cancel();
    const [row] = await t.store.query<{ n: number }>(
      `select count(*)::int as n from public.mfa_backup_codes where factor_id = $1`,
      [factorId],
    );
    assert.equal(row.n, 0);
  });
}

Deno.test("five wrong backup codes end the challenge: even a right backup code is refused after them", async () => {
  await using t = await testApp();
  const { token, email: address, password } = await passwordSession(t);
  const { factorId, codes } = await enrolWithCodes(t, token);
  const aal1 = (await signIn(t, address, password)).access_token;
  const challenge = await (await gotrue(t, `/factors/${factorId}/challenge`, aal1, { body: {} }))
    .json();
  const verify = (code: string) =>
    gotrue(t, `/factors/${factorId}/verify`, aal1, {
      body: { challenge_id: challenge.id, code },
    });
  for (let i = 0; i < 5; i++) {
    const res = await verify("ZZZZZZZZZZ");
    assert.equal(res.status, 422);
    assert.equal((await res.json()).code, "mfa_verification_failed");
  }
  const late = await verify(codes[0]);
  assert.equal(late.status, 422);
  assert.equal((await late.json()).code, "mfa_factor_not_found");
  // The code was not spent: it works on a new challenge.
  const ok = await answer(t, aal1, factorId, codes[0]);
  assert.equal(ok.status, 200);
  await ok.body?.cancel();
});

Deno.test("a backup code does not confirm an enrolment: the first code must come from the app", async () => {
  await using t = await testApp();
  const { token } = await passwordSession(t);
  const factor = await (await gotrue(t, "/factors", token, { body: { factor_type: "totp" } }))
    .json();
  const res = await answer(t, token, factor.id, factor.backup_codes[0]);
  assert.equal(res.status, 422);
  assert.equal((await res.json()).code, "mfa_verification_failed");
});

Deno.test("backup codes never reach the logs", async () => {
  await using t = await testApp();
  const { token, email: address, password } = await passwordSession(t);
  const { factorId, codes, aal2 } = await enrolWithCodes(t, token);
  const used = await answer(
    t,
    (await signIn(t, address, password)).access_token,
    factorId,
    codes[0],
  );
  await used.body?.cancel();
  const fresh = await (await gotrue(t, `/factors/${factorId}/backup_codes`, aal2, {})).json();
  const text = JSON.stringify(t.logs);
  assert.ok(t.logs.length > 0);
  for (const code of [...codes, ...fresh.backup_codes]) {
    assert.ok(!text.includes(code), "a backup code was logged");
  }
});
