/**
 * Health's readiness check under a busy store (lib/health.ts, issue 24): a check that passed
 * within the last second answers at once while a fresh one runs beside it, so a probe never
 * queues behind an import's statements; a store that stops answering still turns health 503
 * once that pass is a second old, and a failure is never reused. Time is injected.
 */
import assert from "node:assert/strict";
import { checkHealth } from "../lib/health.ts";
import type { Store } from "../lib/store/mod.ts";
import { testApp } from "./helpers/app.ts";

/** The app's real store behind a switch that makes its queries hang, as a frozen database. */
function freezable(store: Store) {
  let frozen = false;
  let asked = 0;
  const wrapped: Store = {
    ...store,
    query<T>(text: string, params?: unknown[]) {
      asked++;
      return frozen ? new Promise<T[]>(() => {}) : store.query<T>(text, params);
    },
  };
  return {
    store: wrapped,
    freeze: () => frozen = true,
    thaw: () => frozen = false,
    asked: () => asked,
  };
}

Deno.test("a readiness pass under a second old answers at once while the next check runs beside it", async () => {
  await using t = await testApp();
  const db = freezable(t.store);
  const deps = { store: db.store, kv: t.kv };
  let at = 0;
  const options = { timeoutMs: 50, now: () => at };
  await checkHealth(deps, options); // a real check, passes
  assert.equal(db.asked(), 1);

  db.freeze();
  at = 900;
  await checkHealth(deps, options); // answered from the pass at 0; a check starts beside it
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
