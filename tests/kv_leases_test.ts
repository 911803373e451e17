import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { HeldLeases, isLeaseHeld, tryLock } from "../lib/platform/kv/lock.ts";

Deno.test("releaseAll hands back every lease still held, and only those", async () => {
  const clock = new FakeClock();
  using kv = await Deno.openKv(":memory:");
  const held = new HeldLeases();
  const a = await tryLock(kv, ["a"], { ttlMs: 60_000, clock, held });
  const b = await tryLock(kv, ["b"], { ttlMs: 60_000, clock, held });
  assert.ok(a && b);
  await a.release();
  assert.equal(await held.releaseAll(), 1, "the one its holder released is not counted");
  assert.equal(await isLeaseHeld(kv, ["b"], { clock }), false);
  assert.ok(await tryLock(kv, ["b"], { ttlMs: 60_000, clock }), "another owner takes it at once");
  assert.equal(await held.releaseAll(), 0);
});

Deno.test("releaseAll leaves a lease another owner took after this one lapsed", async () => {
  const clock = new FakeClock();
  using kv = await Deno.openKv(":memory:");
  const held = new HeldLeases();
  assert.ok(await tryLock(kv, ["k"], { ttlMs: 1_000, clock, held }));
  clock.advance(1_000);
  assert.ok(await tryLock(kv, ["k"], { ttlMs: 1_000, clock, owner: "other" }));
  assert.equal(await held.releaseAll(), 1);
  assert.equal(await isLeaseHeld(kv, ["k"], { clock }), true, "the other owner's lease stays");
});
