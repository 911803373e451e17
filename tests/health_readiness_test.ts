/**
 * Health's readiness check under a busy store (lib/platform/health/health.ts, issue 24): when an ask's own check
 * is slow, a check that passed within the last second answers it while the check goes on, so a
 * probe never waits long behind an import's statements; a store that stops answering still turns
 * health 503 once that pass is a second old, one that fails at once turns it 503 at once, and a
 * failure is never reused. Time is injected.
 */
import assert from "node:assert/strict";
import { checkHealth } from "../lib/platform/health/health.ts";
import type { Store } from "../lib/platform/store/mod.ts";
import { testApp } from "./helpers/app.ts";

/** The app's real store behind a switch that makes its queries hang, as a frozen database. */
function freezable(store: Store) {
  let mode: "up" | "frozen" | "down" = "up";
  let asked = 0;
  const wrapped: Store = {
    ...store,
    query<T>(text: string, params?: unknown[]) {
      asked++;
      if (mode === "down") return Promise.reject(new Error("connection refused"));
      return mode === "frozen" ? new Promise<T[]>(() => {}) : store.query<T>(text, params);
    },
  };
  return {
    store: wrapped,
    freeze: () => mode = "frozen",
    stop: () => mode = "down",
    thaw: () => mode = "up",
    asked: () => asked,
  };
}

Deno.test("a readiness pass under a second old answers an ask whose own check is slow; the check goes on beside it", async () => {
  await using t = await testApp();
  const db = freezable(t.store);
  const deps = { store: db.store, kv: t.kv };
  let at = 0;
  // The grace ends long before the deadline, so a frozen check is slow first and failed later.
  const options = { timeoutMs: 300, graceMs: 5, now: () => at };
  await checkHealth(deps, options); // a real check, passes
  assert.equal(db.asked(), 1);

  db.freeze();
  at = 900;
  await checkHealth(deps, options); // its check hangs: answered from the pass at 0
  assert.equal(db.asked(), 2);
  await checkHealth(deps, options); // the same check still runs: no second query queued
  assert.equal(db.asked(), 2);

  at = 1_000; // the pass is a second old: this ask waits for a check, which the frozen store fails
  await assert.rejects(
    checkHealth(deps, options),
    (e: { code?: string }) => e.code === "not_ready",
  );
  at = 1_100; // the failure is not reused as a pass, nor as a failure once the store answers
  db.thaw();
  await checkHealth(deps, options);
});

Deno.test("a failed readiness check is never reused: the next ask checks again", async () => {
  await using t = await testApp();
  const db = freezable(t.store);
  const deps = { store: db.store, kv: t.kv };
  const options = { timeoutMs: 50, now: () => 0 };
  db.freeze();
  await assert.rejects(
    checkHealth(deps, options),
    (e: { code?: string }) => e.code === "not_ready",
  );
  db.thaw();
  await checkHealth(deps, options);
  assert.equal(db.asked(), 2);
});

Deno.test("a store that fails at once turns health 503 even right after a pass", async () => {
  await using t = await testApp();
  const db = freezable(t.store);
  const deps = { store: db.store, kv: t.kv };
  const options = { now: () => 0 };
  await checkHealth(deps, options);
  db.stop();
  await assert.rejects(
    checkHealth(deps, options),
    (e: { code?: string }) => e.code === "not_ready",
  );
});

Deno.test("on PostgreSQL (its pool answers beside the imports) every ask waits for its own check", async () => {
  await using t = await testApp();
  const db = freezable(t.store);
  const deps = { store: { ...db.store, kind: "postgres" as const }, kv: t.kv };
  const options = { timeoutMs: 50, graceMs: 5, now: () => 0 };
  await checkHealth(deps, options);
  db.freeze();
  await assert.rejects(
    checkHealth(deps, options),
    (e: { code?: string }) => e.code === "not_ready",
  );
});
