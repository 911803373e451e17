/**
 * POST /auth/v1/recover tells nothing by its timing (docs/identity.md): for an existing and an
 * unknown email alike, the answer comes before any limit, lookup or mail, which run afterwards.
 * Checked by structure, never by timing: with the store held shut, the answer still arrives
 * before the store is asked anything, for both emails.
 */
import assert from "node:assert/strict";
import { requestPasswordReset, resetMailsSettled } from "../lib/identity/auth/password_reset.ts";
import type { AppDeps } from "../lib/platform/deps.ts";
import type { MailMessage } from "../lib/platform/mail/mod.ts";
import type { Store } from "../lib/platform/store/mod.ts";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";

/** The store behind a gate: queries wait while it is shut, and the first one is announced. */
function gatedStore(store: Store) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => open = resolve);
  let asked!: () => void;
  const firstQuery = new Promise<"store asked">((resolve) => asked = () => resolve("store asked"));
  const gated = new Proxy(store, {
    get(target, key, receiver) {
      if (key !== "query") return Reflect.get(target, key, receiver);
      return async (text: string, params?: unknown[]) => {
        asked();
        await opened;
        return await target.query(text, params);
      };
    },
  });
  return { store: gated, open, firstQuery };
}

Deno.test("POST /auth/v1/recover answers before any lookup, for an existing and an unknown email alike", async () => {
  await using t = await testApp();
  const known = await createUser(t.deps, { email: "known@example.com" });
  for (const email of [known.email, "nobody@example.com"]) {
    const gate = gatedStore(t.deps.store);
    const sent: MailMessage[] = [];
    const deps: AppDeps = { ...t.deps, store: gate.store };
    const answered = Promise.resolve().then(() =>
      requestPasswordReset(deps, { email }, {
        clientAddress: "192.0.2.1",
        mailer: { send: (message) => Promise.resolve(void sent.push(message)) },
      })
    ).then(() => "answered" as const);
    assert.equal(await Promise.race([answered, gate.firstQuery]), "answered", email);
    assert.deepEqual(sent, [], `${email}: nothing sent before the answer`);
    // The work happens afterwards: the lookup for both, a mail for the account only.
    assert.equal(await gate.firstQuery, "store asked", email);
    gate.open();
    await resetMailsSettled(deps);
    assert.equal(sent.length, email === known.email ? 1 : 0, email);
  }
});

Deno.test("POST /auth/v1/recover runs the same queries before answering for an existing and an unknown email", async () => {
  await using t = await testApp();
  await createUser(t.deps, { email: "known@example.com" });
  const during: number[] = [];
  for (const email of ["known@example.com", "nobody@example.com"]) {
    const before = t.store.stats.queries;
    const res = await t.request("/auth/v1/recover", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email }),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {});
    during.push(t.store.stats.queries - before);
    await resetMailsSettled(t.deps);
  }
  assert.deepEqual(during, [0, 0]);
});
