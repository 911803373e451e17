import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { renewLock, tryLock } from "../lib/platform/kv/lock.ts";
import { takeGenerationLease, withGenerationLease } from "../lib/recommend/lease.ts";
import { createRecommendService, LOCK_TTL_MS } from "../lib/recommend/mod.ts";
import { modelLike, POOL, recommendWorld } from "./helpers/recommend_world.ts";
import { onCommit } from "./helpers/kv_commits.ts";
import { PendingWork } from "./helpers/settled.ts";

/** `kv` that counts its finished atomic commits, so a test can wait for a renewal to land. */
function countingKv(kv: Deno.Kv): { kv: Deno.Kv; commits: () => number } {
  let commits = 0;
  return { kv: onCommit(kv, () => commits++), commits: () => commits };
}

/** Yields to the event loop until `done` holds (a condition, never a timed wait). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1_000 && !done(); i++) await new Promise((r) => setTimeout(r, 0));
  assert.ok(done(), "the condition never came true");
}

Deno.test("FakeClock runs every() callbacks at each period it is moved past, until stopped", async () => {
  const clock = new FakeClock();
  const start = clock.now();
  const seen: number[] = [];
  const stop = clock.every(100, () => seen.push(clock.now() - start));
  clock.advance(250);
  assert.deepEqual(seen, [100, 200]);
  await clock.sleep(100);
  assert.deepEqual(seen, [100, 200, 300]);
  assert.equal(clock.now() - start, 350);
  stop();
  clock.advance(1_000);
  assert.deepEqual(seen, [100, 200, 300]);
});

Deno.test("the generation lease is renewed by a heartbeat on the injected clock while its work runs", async () => {
  const clock = new FakeClock();
  using memory = await Deno.openKv(":memory:");
  const { kv, commits } = countingKv(memory);
  const deps = { kv, clock, log: () => {} };
  let started!: () => void;
  const running = new Promise<void>((resolve) => started = resolve);
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => finish = resolve);
  const generation = withGenerationLease(deps, async () => {
    started();
    await finished;
    return "done";
  }, { userId: "u1", ttlMs: 300 });
  await running;
  assert.equal(commits(), 1, "the lease taken");
  // Twice the TTL, a heartbeat (every TTL/3) at a time: each renewal lands before the next.
  for (let beat = 1; beat <= 6; beat++) {
    clock.advance(100);
    await until(() => commits() === 1 + beat);
  }
  assert.equal(await takeGenerationLease(kv, "u1", { clock }), null, "still held at 2x TTL");
  finish();
  assert.equal(await generation, "done");
  const afterRelease = commits();
  clock.advance(1_000);
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(commits(), afterRelease, "no heartbeat after the work ended");
  assert.ok(await takeGenerationLease(kv, "u1", { clock }), "released");
});

Deno.test("a second generation of the same user while the lease is held answers 409", async () => {
  const clock = new FakeClock();
  using kv = await Deno.openKv(":memory:");
  const held = await takeGenerationLease(kv, "u1", { clock });
  assert.ok(held);
  await assert.rejects(
    withGenerationLease({ kv, clock, log: () => {} }, () => Promise.resolve(1), { userId: "u1" }),
    (e: { status?: number; code?: string }) =>
      e.status === 409 && e.code === "generation_in_progress",
  );
});

Deno.test("the generation lock is released after a failure too", async () => {
  await using w = await recommendWorld();
  w.ai.fallback = () => ({ content: "garbage" });
  assert.equal((await w.get("/api/recommend")).status, 502);
  assert.equal((await w.get("/api/recommend")).status, 502);
});

Deno.test("a generation lock never released expires by itself", async () => {
  const clock = new FakeClock();
  await using w = await recommendWorld({ clock });
  // A process that died while generating: it took the lock and never released it.
  const dead = await takeGenerationLease(w.t.kv, w.user.id, { clock });
  assert.ok(dead);
  const blocked = await w.get("/api/recommend");
  assert.equal(blocked.status, 409);
  assert.equal((await blocked.json()).code, "generation_in_progress");
  clock.advance(LOCK_TTL_MS - 1);
  assert.equal((await w.get("/api/recommend")).status, 409);
  clock.advance(1);
  const res = await w.get("/api/recommend");
  assert.equal(res.status, 200);
  assert.equal(w.ai.requests.length, 1);
});

Deno.test("the lock is per user: another user's generation is not blocked", async () => {
  const clock = new FakeClock();
  await using w = await recommendWorld({ clock });
  await takeGenerationLease(w.t.kv, "00000000-0000-4000-8000-000000000000", { clock });
  assert.equal((await w.get("/api/recommend")).status, 200);
});

Deno.test("renewLock extends its owner's lease, takes back a lapsed one, never another's", async () => {
  const clock = new FakeClock();
  using kv = await Deno.openKv(":memory:");
  const key = ["lock"];
  const held = await tryLock(kv, key, { ttlMs: 1_000, clock, owner: "a" });
  assert.ok(held);
  clock.advance(900);
  assert.equal(await held.renew(), true);
  clock.advance(900);
  // Renewed at 900, so it holds until 1,900: still taken at 1,800.
  assert.equal(await tryLock(kv, key, { ttlMs: 1_000, clock, owner: "b" }), null);
  clock.advance(200);
  // Lapsed and nobody took it: its owner takes it back.
  assert.equal(await renewLock(kv, key, { owner: "a", ttlMs: 1_000, clock }), true);
  assert.equal(await tryLock(kv, key, { ttlMs: 1_000, clock, owner: "b" }), null);
  clock.advance(1_000);
  const other = await tryLock(kv, key, { ttlMs: 1_000, clock, owner: "b" });
  assert.ok(other);
  assert.equal(await held.renew(), false);
  await held.release();
  assert.equal(await tryLock(kv, key, { ttlMs: 1_000, clock, owner: "c" }), null);
});

Deno.test("a generation longer than the lock's TTL keeps its lock (renewed) until it ends", async () => {
  const clock = new FakeClock();
  await using w = await recommendWorld({ clock });
  const answer = modelLike(POOL);
  const { promise: generating, resolve: started } = Promise.withResolvers<void>();
  const { promise: gate, resolve: finish } = Promise.withResolvers<void>();
  w.ai.fallback = (request) => {
    if (w.ai.requests.length > 1) return answer(request);
    started();
    return { ...answer(request), heldUntil: gate };
  };
  const work = new PendingWork();
  const service = createRecommendService({ ...w.t.deps, kv: work.wrap(w.t.kv) }, {
    search: () => Promise.resolve({ results: [] }),
    lockTtlMs: 500,
  });
  const first = service.recommend(w.user.id);
  await generating;
  // Twice the TTL in, on the clock's own timers, each renewal done before time moves on:
  // without renewal the lease would have run out and this would generate.
  for (let i = 0; i < 5; i++) {
    clock.advance(200);
    await work.settled();
  }
  await assert.rejects(
    service.recommend(w.user.id, { mode: "refresh" }),
    (e: { code?: string }) => e.code === "generation_in_progress",
  );
  finish();
  assert.equal((await first).cached, false);
  assert.equal(w.ai.requests.length, 1);
});
