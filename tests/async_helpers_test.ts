/** lib/core/async: the deadline, the concurrency gate, the task pool and the retry loop, without sleeping. */
import assert from "node:assert/strict";
import { type DeadlineTimer, withDeadline } from "../lib/core/async/deadline.ts";
import { limiter } from "../lib/core/async/limiter.ts";
import { taskPool } from "../lib/core/async/pool.ts";
import { retry } from "../lib/core/async/retry.ts";

/** A timer the test fires by hand. */
class HandTimer implements DeadlineTimer {
  readonly pending = new Map<number, { fn: () => void; ms: number }>();
  #next = 0;
  set(fn: () => void, ms: number): unknown {
    this.pending.set(++this.#next, { fn, ms });
    return this.#next;
  }
  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  fireAll(): void {
    for (const [handle, { fn }] of [...this.pending]) {
      this.pending.delete(handle);
      fn();
    }
  }
}

/** A promise the test settles. */
function gate<T>() {
  return Promise.withResolvers<T>();
}

Deno.test("withDeadline answers work that settles in time and clears its timer", async () => {
  const timer = new HandTimer();
  const answer = withDeadline(Promise.resolve(7), 1000, { onLate: () => -1, timer });
  assert.equal(await answer, 7);
  assert.equal(timer.pending.size, 0);
});

Deno.test("withDeadline passes a failure of the work through unchanged", async () => {
  const timer = new HandTimer();
  const boom = new Error("boom");
  await assert.rejects(withDeadline(Promise.reject(boom), 1000, { onLate: () => 0, timer }), boom);
  assert.equal(timer.pending.size, 0);
});

Deno.test("withDeadline resolves with onLate's value once the timer fires first", async () => {
  const timer = new HandTimer();
  const work = gate<string>();
  const answer = withDeadline(work.promise, 250, { onLate: () => "fallback", timer });
  assert.equal([...timer.pending.values()][0].ms, 250);
  timer.fireAll();
  assert.equal(await answer, "fallback");
  // The abandoned work settling later changes nothing and is not an unhandled rejection.
  work.reject(new Error("too late"));
  await Promise.resolve();
});

Deno.test("withDeadline rejects with what onLate throws once the timer fires first", async () => {
  const timer = new HandTimer();
  const late = new Error("late");
  const answer = withDeadline(new Promise<number>(() => {}), 10, {
    onLate: () => {
      throw late;
    },
    timer,
  });
  timer.fireAll();
  await assert.rejects(answer, late);
});

Deno.test("the limiter never runs more than its limit, in arrival order, and hands a place straight on", async () => {
  const run = limiter(2);
  const held = [gate<void>(), gate<void>(), gate<void>(), gate<void>()];
  const started: number[] = [];
  let active = 0;
  let peak = 0;
  const tasks = held.map((h, i) =>
    run(async () => {
      started.push(i);
      peak = Math.max(peak, ++active);
      await h.promise;
      active--;
      return i * 10;
    })
  );
  await Promise.resolve();
  assert.deepEqual(started, [0, 1]);
  held[0].resolve();
  assert.equal(await tasks[0], 0);
  // A newcomer arriving as the place is handed on waits behind the queue.
  const late = run(() => {
    started.push(99);
    return Promise.resolve(99);
  });
  await new Promise((r) => queueMicrotask(() => r(null)));
  held[1].resolve();
  held[2].resolve();
  held[3].resolve();
  assert.deepEqual(await Promise.all([...tasks, late]), [0, 10, 20, 30, 99]);
  assert.deepEqual(started, [0, 1, 2, 3, 99]);
  assert.equal(peak, 2);
});

Deno.test("the limiter passes a task's failure on and frees its place", async () => {
  const run = limiter(1);
  await assert.rejects(run(() => Promise.reject(new Error("no"))), /no/);
  assert.equal(await run(() => Promise.resolve("next")), "next");
});

Deno.test("taskPool runs tasks added while draining and stops only what has not started", async () => {
  const pool = taskPool(2);
  const ran: string[] = [];
  const first = gate<void>();
  pool.add(async () => {
    ran.push("a");
    await first.promise;
    pool.add(() => Promise.resolve(void ran.push("child")));
  });
  pool.add(() => Promise.resolve(void ran.push("b")));
  const drained = pool.drained();
  first.resolve();
  await drained;
  assert.deepEqual(ran, ["a", "b", "child"]);

  const held = gate<void>();
  const after: string[] = [];
  pool.add(async () => {
    after.push("running");
    await held.promise;
    after.push("finished");
  });
  pool.add(async () => {
    await held.promise;
  });
  pool.add(() => Promise.resolve(void after.push("queued")));
  await Promise.resolve();
  pool.stop();
  held.resolve();
  await pool.drained();
  assert.deepEqual(after, ["running", "finished"]);
  // A pool goes on taking tasks after a stop.
  pool.add(() => Promise.resolve(void after.push("new")));
  await pool.drained();
  assert.deepEqual(after, ["running", "finished", "new"]);
});

Deno.test("retry tries again after a retryable failure, pausing as told, until one succeeds", async () => {
  const pauses: number[] = [];
  let tries = 0;
  const answer = await retry(() => {
    tries++;
    return tries < 3 ? Promise.reject(new Error("busy")) : Promise.resolve("ok");
  }, {
    attempts: 3,
    retryable: (e) => e instanceof Error && e.message === "busy",
    pause: (attempt) => Promise.resolve(void pauses.push(attempt)),
  });
  assert.equal(answer, "ok");
  assert.equal(tries, 3);
  assert.deepEqual(pauses, [1, 2]);
});

Deno.test("retry throws the last failure once its attempts run out, and a lasting one at once", async () => {
  let tries = 0;
  const always = () => {
    tries++;
    return Promise.reject(new Error(`busy ${tries}`));
  };
  const options = { attempts: 3, retryable: () => true, pause: () => Promise.resolve() };
  await assert.rejects(retry(always, options), /busy 3/);
  assert.equal(tries, 3);
  tries = 0;
  await assert.rejects(retry(always, { ...options, retryable: () => false }), /busy 1/);
  assert.equal(tries, 1);
});
