/**
 * The background scheduler every import's slices share (lib/core/async/background_turns.ts, issue
 * 24): turns go round the waiting work first come first served, each turn is followed by a pause
 * sized to the share, and work that stops ticking loses its turn. Time is an injected clock.
 */
import assert from "node:assert/strict";
import { BackgroundTurns } from "../lib/core/async/background_turns.ts";
import { FakeClock } from "../lib/core/clock.ts";
import { Slicer } from "../lib/library/history/import/slices.ts";

/** Runs `slices` slices of `workMs` each for every named worker; when each slice began. */
async function work(
  turns: BackgroundTurns,
  clock: FakeClock,
  options: { workers: string[]; slices: number; workMs: number },
): Promise<{ name: string; at: number }[]> {
  const log: { name: string; at: number }[] = [];
  const start = clock.now();
  await Promise.all(options.workers.map(async (name) => {
    const slicer = new Slicer(undefined, turns);
    for (let i = 0; i < options.slices; i++) {
      await slicer.tick();
      log.push({ name, at: clock.now() - start });
      clock.advance(options.workMs); // this slice's work
    }
    slicer.done();
  }));
  return log;
}

Deno.test("three imports take turns in order, one slice each, never two at once", async () => {
  const clock = new FakeClock();
  const turns = new BackgroundTurns({ clock, sliceMs: 10, share: 0.5 });
  const log = await work(turns, clock, { workers: ["a", "b", "c"], slices: 3, workMs: 10 });
  assert.deepEqual(log.map((s) => s.name), ["a", "b", "c", "a", "b", "c", "a", "b", "c"]);
});

Deno.test("at a share of one half, each turn is followed by a pause as long as the turn", async () => {
  const clock = new FakeClock();
  const turns = new BackgroundTurns({ clock, sliceMs: 10, share: 0.5 });
  const log = await work(turns, clock, { workers: ["a", "b"], slices: 2, workMs: 10 });
  // Each slice of 10 ms is followed by 10 ms for everything else: a turn every 20 ms.
  assert.deepEqual(log.map((s) => s.at), [0, 20, 40, 60]);
});

Deno.test("five imports together get the budget one import gets alone", async () => {
  const alone = new FakeClock();
  const one = await work(new BackgroundTurns({ clock: alone, sliceMs: 10, share: 0.25 }), alone, {
    workers: ["a"],
    slices: 10,
    workMs: 10,
  });
  const together = new FakeClock();
  const five = await work(
    new BackgroundTurns({ clock: together, sliceMs: 10, share: 0.25 }),
    together,
    { workers: ["a", "b", "c", "d", "e"], slices: 2, workMs: 10 },
  );
  // Ten slices of 10 ms at a quarter share: the tenth starts after 9 x 40 ms either way.
  assert.equal(one.at(-1)!.at, 360);
  assert.equal(five.at(-1)!.at, 360);
});

Deno.test("a slice that runs long buys a pause as long, so the share holds", async () => {
  const clock = new FakeClock();
  const turns = new BackgroundTurns({ clock, sliceMs: 10, share: 0.5 });
  const log = await work(turns, clock, { workers: ["a", "b"], slices: 2, workMs: 30 });
  assert.deepEqual(log.map((s) => s.at), [0, 60, 120, 180]);
});

Deno.test("work that stops ticking (waiting on I/O) loses its turn to the next", async () => {
  const turns = new BackgroundTurns({ clock: new FakeClock(), sliceMs: 1 });
  const idle = await turns.take(); // never ends its turn, as if awaiting a network answer
  const next = await turns.take();
  assert.equal(idle.spent, true);
  assert.equal(next.spent, false);
  next.end();
  assert.equal(next.spent, true);
});

Deno.test("a slicer without a scheduler keeps its own slices", async () => {
  const slicer = new Slicer(0);
  await slicer.tick(); // a zero slice yields every time, without a scheduler to wait on
  const again = slicer.tick();
  assert.ok(again instanceof Promise);
  await again;
});

Deno.test("an upload's read goes first: its slices come before the runs', within the same share", async () => {
  const clock = new FakeClock();
  const turns = new BackgroundTurns({ clock, sliceMs: 10, share: 0.5 });
  const log: { name: string; at: number }[] = [];
  const start = clock.now();
  const worker = (name: string, slices: number, first = false) => async () => {
    const slicer = new Slicer(undefined, turns, { first });
    for (let i = 0; i < slices; i++) {
      await slicer.tick();
      log.push({ name, at: clock.now() - start });
      clock.advance(10);
    }
    slicer.done();
  };
  // Two runs are taking turns when an upload's read arrives.
  const runs = [worker("run1", 4)(), worker("run2", 4)()];
  await new Promise((r) => setTimeout(r, 0));
  await Promise.all([...runs, worker("read", 3, true)()]);
  const order = log.map((s) => s.name);
  const reads = order.flatMap((name, i) => (name === "read" ? [i] : []));
  // Once it is waiting, the read takes every turn until it is done; the runs go on after.
  assert.deepEqual(reads, [reads[0], reads[0] + 1, reads[0] + 2]);
  assert.ok(reads[0] <= 2, order.join(" "));
  // The pause after every turn stays: one slice every 20 ms, whoever holds it.
  assert.deepEqual(log.map((s) => s.at), log.map((_, i) => i * 20));
});
