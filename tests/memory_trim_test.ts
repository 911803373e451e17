/**
 * The idle release (lib/platform/memory_trim.ts): the C heap's trim available where the server runs,
 * harmless elsewhere; the heap's collection only after growth, never on a heap that large.
 */
import assert from "node:assert/strict";
import {
  IDLE_GC_GROWTH,
  IDLE_GC_MAX_HEAP,
  idleRelease,
  idleTrim,
  loadCollector,
  loadMallocTrim,
  ORDINARY_PASSES,
  SERVER_V8_FLAGS,
  trimWhenIdle,
} from "../lib/platform/memory_trim.ts";

// A Deno built for Linux with glibc (the project's machines and its VPS recipe).
const glibc = Deno.build.os === "linux" && Deno.build.target.endsWith("-gnu");

Deno.test("malloc_trim loads on Linux with glibc and answers whether it released memory", () => {
  const trim = loadMallocTrim();
  if (!glibc) {
    assert.equal(trim, null);
    return;
  }
  assert.ok(trim !== null);
  const released = trim();
  assert.ok(released === 0 || released === 1, `malloc_trim answered ${released}`);
});

Deno.test("the idle trim runs where malloc_trim exists, counts requests and stops on request", () => {
  const running = trimWhenIdle({ periodMs: 60_000, budgetBytes: 300 * 1024 * 1024 });
  assert.equal(running !== null, glibc);
  running?.activity();
  running?.stop();
});

Deno.test("the idle rule releases after start-up and after a burst, never in a period with requests", () => {
  const releases: boolean[] = [];
  const rule = idleTrim((deep) => releases.push(deep), { deepAfter: 3 });
  assert.equal(rule.tick(), true, "idle since start-up: releases, the deep way");
  assert.equal(rule.tick(), false, "nothing happened since: no second release");
  rule.activity();
  assert.equal(rule.tick(), false, "a request in this period: busy, no release");
  rule.activity();
  assert.equal(rule.tick(), false, "still busy");
  assert.equal(rule.tick(), true, "a whole period without requests after the burst: releases");
  assert.equal(rule.tick(), false);
  assert.deepEqual(releases, [true, false]);
});

Deno.test("still over the budget once the ordinary release has settled, the deep one follows", () => {
  const releases: boolean[] = [];
  let over = false;
  const rule = idleTrim((deep) => releases.push(deep), {
    deepAfter: 30,
    overBudget: () => over,
    settle: 2,
  });
  rule.tick();
  rule.activity();
  rule.tick();
  assert.equal(rule.tick(), true);
  assert.deepEqual([rule.tick(), rule.tick()], [false, false]);
  assert.deepEqual(releases, [true, false], "under the budget: the ordinary release alone");
  rule.activity();
  rule.tick();
  over = true;
  assert.equal(rule.tick(), true, "over it: the ordinary release first");
  assert.equal(rule.tick(), false, "a period later V8 may still be handing pages back");
  assert.equal(rule.tick(), true, "settled and still over: the deep one");
  assert.deepEqual(releases, [true, false, false, true]);
  assert.equal(rule.tick(), false, "and nothing more for that burst, however long the quiet");
});

Deno.test("over the budget only until the ordinary release has settled: no deep release", () => {
  const releases: boolean[] = [];
  let over = false;
  const rule = idleTrim((deep) => releases.push(deep), {
    deepAfter: 30,
    overBudget: () => over,
    settle: 2,
  });
  rule.tick();
  rule.activity();
  rule.tick();
  over = true;
  assert.equal(rule.tick(), true, "the ordinary release, over the budget at that moment");
  over = false;
  assert.deepEqual([rule.tick(), rule.tick(), rule.tick()], [false, false, false]);
  assert.deepEqual(releases, [true, false], "warm: the pages went back without the deep one");
});

Deno.test("deno task start and the systemd unit run the server with SERVER_V8_FLAGS", async () => {
  const root = new URL("../", import.meta.url);
  const flags = `--v8-flags=${SERVER_V8_FLAGS} main.ts`;
  const tasks = JSON.parse(await Deno.readTextFile(new URL("deno.json", root))).tasks;
  assert.ok(tasks.start.endsWith(flags), tasks.start);
  const unit = await Deno.readTextFile(new URL("deploy/movies.service", root));
  assert.ok(unit.includes(`ExecStart=/usr/local/bin/deno run -A ${flags}\n`), "movies.service");
});

Deno.test("the first quiet tick after start-up goes deep even after requests", () => {
  const releases: boolean[] = [];
  const rule = idleTrim((deep) => releases.push(deep), { deepAfter: 30 });
  rule.activity();
  assert.equal(rule.tick(), false);
  assert.equal(rule.tick(), true);
  assert.deepEqual(releases, [true]);
});

Deno.test("the deep release waits for deepAfter quiet periods, once per quiet stretch", () => {
  const releases: boolean[] = [];
  const rule = idleTrim((deep) => releases.push(deep), { deepAfter: 3 });
  rule.tick();
  rule.activity();
  rule.tick();
  assert.deepEqual([rule.tick(), rule.tick()], [true, false], "quiet 1 and 2: the ordinary one");
  assert.equal(rule.tick(), true, "quiet 3: the deep one");
  assert.equal(rule.tick(), false, "and never twice for one burst");
  rule.activity();
  rule.tick();
  rule.tick();
  rule.activity();
  rule.tick();
  assert.deepEqual([rule.tick(), rule.tick()], [true, false]);
  assert.equal(rule.tick(), true, "a request restarts the count of quiet periods");
  assert.deepEqual(releases, [true, false, true, false, false, true]);
});

Deno.test("the collector is V8's where gc is exposed, and absent where it is not", () => {
  const holder = globalThis as { gc?: unknown };
  const had = holder.gc;
  const calls: unknown[] = [];
  try {
    holder.gc = undefined;
    assert.equal(loadCollector(), null);
    holder.gc = (options: unknown) => calls.push(options);
    loadCollector()!(false);
    loadCollector()!(true);
    assert.deepEqual(calls, [
      { type: "major", execution: "sync", flavor: "regular" },
      { type: "major", execution: "sync", flavor: "last-resort" },
    ]);
  } finally {
    holder.gc = had;
  }
});

Deno.test("an idle release collects after start-up and after the heap grew by 16 MiB, not below, and never a heap of 256 MiB in use", () => {
  const MiB = 1024 * 1024;
  let heap = { heapTotal: 60 * MiB, heapUsed: 40 * MiB };
  let collections = 0;
  let trims = 0;
  const release = idleRelease({
    trim: () => ++trims,
    collect: () => {
      collections++;
      heap = { heapTotal: 35 * MiB, heapUsed: 30 * MiB };
    },
    heap: () => heap,
  })!;
  // Each ordinary release here collects twice: the second pass shrinks nothing, so no third.
  release(false);
  assert.equal(collections, 2, "the first idle tick after start-up collects");
  heap = { heapTotal: 35 * MiB + IDLE_GC_GROWTH - 1, heapUsed: 50 * MiB };
  release(false);
  assert.equal(collections, 2, "one byte short of the growth: no collection");
  heap = { heapTotal: 35 * MiB + IDLE_GC_GROWTH, heapUsed: 50 * MiB };
  release(false);
  assert.equal(collections, 4, "grown by exactly the growth: collects");
  heap = { heapTotal: 900 * MiB, heapUsed: IDLE_GC_MAX_HEAP };
  release(false);
  assert.equal(collections, 4, "a heap this large in use is a job's live data: left alone");
  heap = { heapTotal: 900 * MiB, heapUsed: IDLE_GC_MAX_HEAP - 1 };
  release(false);
  assert.equal(collections, 6);
  heap = { heapTotal: 35 * MiB, heapUsed: 30 * MiB };
  release(false);
  assert.equal(collections, 6, "no growth since: the ordinary release leaves the heap alone");
  release(true);
  assert.equal(collections, 7, "the deep release collects once, without growth");
  assert.equal(trims, 7, "the C heap is trimmed at every release");
});

Deno.test("the ordinary release collects again while a pass still shrinks the heap, at most ORDINARY_PASSES times", () => {
  const MiB = 1024 * 1024;
  const compacting = (sizes: number[]) => {
    let heap = { heapTotal: sizes[0] * MiB, heapUsed: 40 * MiB };
    const flavours: boolean[] = [];
    const release = idleRelease({
      trim: null,
      collect: (deep) => {
        flavours.push(deep);
        heap = { heapTotal: sizes[flavours.length] * MiB, heapUsed: 30 * MiB };
      },
      heap: () => heap,
    })!;
    return { release, flavours };
  };
  // A load's garbage, compacted a little more by each pass (measured: 101.8, 70.8, 27.5 MiB).
  const load = compacting([160, 102, 71, 28, 27, 27]);
  load.release(false);
  assert.equal(ORDINARY_PASSES, 3);
  assert.deepEqual(load.flavours, [false, false, false], "three passes, and no fourth");
  // A pass that frees less than a MiB ends the repetition.
  const small = compacting([60, 40, 39.5, 30]);
  small.release(false);
  assert.deepEqual(small.flavours, [false, false], "40 -> 39.5 MiB: done");
  // The deep release is one low-memory collection, which compacts by itself.
  const deep = compacting([160, 30, 30]);
  deep.release(true);
  assert.deepEqual(deep.flavours, [true]);
});

Deno.test("an idle release without a trim still collects, and is absent with neither", () => {
  let collections = 0;
  const release = idleRelease({
    trim: null,
    collect: () => void collections++,
    heap: () => ({ heapTotal: 0, heapUsed: 0 }),
  })!;
  assert.equal(release(false), 0);
  assert.equal(collections, 1);
  assert.equal(idleRelease({ trim: null, collect: null }), null);
});
