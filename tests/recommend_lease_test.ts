import assert from "node:assert/strict";
import { FakeClock } from "../lib/clock.ts";
import { takeGenerationLease, withGenerationLease } from "../lib/recommend/lease.ts";

/** `kv` that counts its finished atomic commits, so a test can wait for a renewal to land. */
function countingKv(kv: Deno.Kv): { kv: Deno.Kv; commits: () => number } {
  let commits = 0;
  const proxy = new Proxy(kv, {
    get(target, name) {
      if (name !== "atomic") return Reflect.get(target, name).bind(target);
      return () => {
        const op = target.atomic();
        const commit = op.commit.bind(op);
        op.commit = async () => {
          const result = await commit();
          commits++;
          return result;
        };
        return op;
      };
    },
  });
  return { kv: proxy, commits: () => commits };
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
