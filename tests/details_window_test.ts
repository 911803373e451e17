/**
 * The details job's quarter of the shared window (docs/catalog.md, "The details job"): at most
 * 10 of each window's 40 places, counted within the background half and taken in the same
 * atomic step, on Deno KV and on the PostgreSQL-backed KV of two instances.
 */
import assert from "node:assert/strict";
import { FakeClock } from "@/lib/core/clock.ts";
import {
  createExternalWindow,
  type ExternalWindow,
  QUARTER_SHARE,
  WINDOW_LIMIT,
} from "@/lib/catalog/external_window.ts";
import { PgKv } from "@/lib/platform/coordination/pg_kv.ts";
import { Problem } from "@/lib/core/problem.ts";
import { ENGINES, testStore } from "./helpers/store.ts";

const quarter = { wait: false, background: true, quarter: true };

async function outcomes(window: ExternalWindow, n: number, options: typeof quarter) {
  const seen: string[] = [];
  for (let i = 0; i < n; i++) {
    try {
      await window.acquire(options);
      seen.push("ok");
    } catch (error) {
      seen.push(error instanceof Problem ? error.code : String(error));
    }
  }
  return seen;
}

Deno.test("a quarter caller takes 10 places of a window, the 11th waits for the next window", async () => {
  assert.equal(WINDOW_LIMIT * QUARTER_SHARE, 10);
  await using kv = await Deno.openKv(":memory:");
  const clock = new FakeClock("2026-12-06T12:00:00.000Z");
  const window = createExternalWindow(kv, { clock });
  const start = clock.now();
  assert.deepEqual(await outcomes(window, 10, quarter), Array(10).fill("ok"));
  assert.equal(clock.now(), start, "10 places without waiting");
  await assert.rejects(window.acquire(quarter), (e) => e instanceof Problem && e.status === 429);
  // A waiting quarter caller sleeps to the next window and takes its place there.
  clock.advance(999);
  await window.acquire({ ...quarter, wait: true });
  assert.equal(clock.now(), start + 1000, "the 11th waited until the window's edge");
  assert.equal(await window.taken(start), 10);
  assert.equal(await window.taken(start + 1000), 1);
});

Deno.test("the quarter counts in the background half: imports keep 10, people 20", async () => {
  await using kv = await Deno.openKv(":memory:");
  const clock = new FakeClock("2026-12-06T12:00:00.000Z");
  const window = createExternalWindow(kv, { clock });
  assert.deepEqual(await outcomes(window, 10, quarter), Array(10).fill("ok"));
  const background = { wait: false, background: true, quarter: false };
  assert.deepEqual(
    await outcomes(window, 11, background),
    [...Array(10).fill("ok"), "rate_limited"],
    "10 more background places, then the half is spent",
  );
  const people = { wait: false, background: false, quarter: false };
  assert.deepEqual(
    await outcomes(window, 21, people),
    [...Array(20).fill("ok"), "rate_limited"],
  );
});

Deno.test("background work that filled the half leaves a quarter caller waiting", async () => {
  await using kv = await Deno.openKv(":memory:");
  const clock = new FakeClock("2026-12-06T12:00:00.000Z");
  const window = createExternalWindow(kv, { clock });
  const background = { wait: false, background: true, quarter: false };
  assert.deepEqual(await outcomes(window, 20, background), Array(20).fill("ok"));
  assert.deepEqual(await outcomes(window, 1, quarter), ["rate_limited"]);
});

for (const engine of ENGINES) {
  Deno.test(`[${engine}] two instances on one database share the quarter exactly`, async () => {
    await using store = await testStore(engine);
    const clock = new FakeClock("2026-12-06T12:00:00.000Z");
    const prefix = ["limits", "external-quarter-test", crypto.randomUUID()];
    const a = createExternalWindow(new PgKv(store, { clock }), { clock, prefix });
    const b = createExternalWindow(new PgKv(store, { clock }), { clock, prefix });
    // Both instances at once: the atomic step hands out exactly 10 places between them.
    const all = await Promise.all([outcomes(a, 8, quarter), outcomes(b, 8, quarter)]);
    const ok = all.flat().filter((o) => o === "ok").length;
    assert.equal(ok, 10);
    assert.equal(await a.taken(clock.now()), 10);
    clock.advance(1000);
    assert.deepEqual(await outcomes(b, 1, quarter), ["ok"], "a new window, a new quarter");
  });
}
