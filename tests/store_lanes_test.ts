/**
 * The embedded store's two lanes (lib/platform/store/lanes.ts, issue 24): a request's statements run
 * before an import's waiting ones, background work still gets a turn after a run of requests,
 * and on the real embedded store a health-style query queued behind an import's statements
 * runs first.
 */
import assert from "node:assert/strict";
import { type Lane, LaneQueue } from "../lib/platform/store/lanes.ts";
import { openPgliteStore } from "../lib/platform/store/pglite.ts";
import { backgroundStore } from "../lib/platform/store/mod.ts";

/** A task that runs until `open()` is called, so others queue behind it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => open = resolve);
  return { open, opened };
}

/** Queues `names` (each "i…" interactive, "b…" background) behind a held task; their run order. */
async function runOrder(queue: LaneQueue, names: string[]): Promise<string[]> {
  const held = gate();
  const order: string[] = [];
  const first = queue.run("background", () => held.opened);
  const all = names.map((name) => {
    const lane: Lane = name.startsWith("i") ? "interactive" : "background";
    return queue.run(lane, () => {
      order.push(name);
      return Promise.resolve();
    });
  });
  held.open();
  await Promise.all([first, ...all]);
  return order;
}

Deno.test("interactive calls run before background calls that were queued earlier", async () => {
  const order = await runOrder(new LaneQueue(), ["b1", "b2", "i1", "b3", "i2"]);
  assert.deepEqual(order, ["i1", "i2", "b1", "b2", "b3"]);
});

Deno.test("background work gets one turn after every backgroundEvery interactive calls while it waits", async () => {
  const order = await runOrder(new LaneQueue({ backgroundEvery: 2 }), [
    "b1",
    "b2",
    "i1",
    "i2",
    "i3",
    "i4",
    "i5",
  ]);
  assert.deepEqual(order, ["i1", "i2", "b1", "i3", "i4", "b2", "i5"]);
});

Deno.test("a failing call rejects its own caller and the queue carries on", async () => {
  const queue = new LaneQueue();
  const failed = queue.run("interactive", () => Promise.reject(new Error("bad statement")));
  const next = queue.run("background", () => Promise.resolve("ran"));
  await assert.rejects(failed, /bad statement/);
  assert.equal(await next, "ran");
  assert.deepEqual(queue.waiting, { interactive: 0, background: 0 });
});

Deno.test("on the embedded store a query waits behind only the running import statement, not the queued ones", async () => {
  const store = await openPgliteStore();
  try {
    const work = backgroundStore(store);
    assert.notEqual(work, store);
    const held = gate();
    const order: string[] = [];
    // An import's transaction is running; three more of its statements wait.
    const running = work.transaction(async (tx) => {
      await tx.query("select 1");
      await held.opened;
      order.push("running import transaction");
    });
    const queued = [1, 2, 3].map((n) =>
      work.query("select $1::int as n", [n]).then(() => order.push(`import statement ${n}`))
    );
    const health = store.query("select 1 as ok").then(() => order.push("health"));
    held.open();
    await Promise.all([running, ...queued, health]);
    assert.deepEqual(order, [
      "running import transaction",
      "health",
      "import statement 1",
      "import statement 2",
      "import statement 3",
    ]);
  } finally {
    await store.close();
  }
});

Deno.test("backgroundStore is the store itself where it has no background lane", () => {
  const plain = { kind: "postgres" } as Parameters<typeof backgroundStore>[0];
  assert.equal(backgroundStore(plain), plain);
});

/** Runs `statements` heavy statements in one transaction on `lane`; how many had run when a timer set before it fired. */
async function statementsBeforeTimer(lane: "interactive" | "background"): Promise<number> {
  const store = await openPgliteStore();
  try {
    const on = lane === "background" ? backgroundStore(store) : store;
    let ran = 0;
    let seen = -1;
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        seen = ran;
        resolve();
      }, 0)
    );
    await on.transaction(async (tx) => {
      for (let i = 0; i < 12; i++) {
        await tx.query("select count(*) from generate_series(1, 200000)");
        ran++;
      }
    });
    await timer;
    return seen;
  } finally {
    await store.close();
  }
}

Deno.test("on the embedded store a background transaction gives the event loop a turn between its statements", async () => {
  // Twelve statements of a few milliseconds each outlast the 5 ms slice, so a timer set before
  // the transaction fires while it is still running: its statements do not hold the loop.
  const seen = await statementsBeforeTimer("background");
  assert.ok(seen >= 0 && seen < 12, `the timer fired after ${seen} of 12 statements`);
});

Deno.test("on the embedded store a person's transaction runs without giving turns", async () => {
  // A request's statements are short; pausing between them would only add latency.
  assert.equal(await statementsBeforeTimer("interactive"), 12);
});
