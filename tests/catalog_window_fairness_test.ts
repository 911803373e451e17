/** The window's background share and its bounds when KV is slower than a window (issue 24, 3-4). */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { createExternalWindow } from "../lib/catalog/external_window.ts";
import { Problem } from "../lib/core/problem.ts";
import { onCommit } from "./helpers/kv_commits.ts";

async function takeAll(
  window: ReturnType<typeof createExternalWindow>,
  n: number,
  options: { wait: boolean; background?: boolean },
) {
  const outcomes: string[] = [];
  for (let i = 0; i < n; i++) {
    try {
      await window.acquire(options);
      outcomes.push("ok");
    } catch (error) {
      outcomes.push(error instanceof Problem ? error.code : String(error));
    }
  }
  return outcomes;
}

Deno.test("background work takes at most half of a window; a person's search still finds room", async () => {
  await using kv = await Deno.openKv(":memory:");
  const clock = new FakeClock("2026-11-22T12:00:00.000Z");
  const window = createExternalWindow(kv, { clock });
  // Background callers that would rather wait: they get 20 places, then wait for the next window.
  const start = clock.now();
  const background = await takeAll(window, 20, { wait: true, background: true });
  assert.deepEqual(background, Array(20).fill("ok"));
  assert.equal(clock.now(), start, "20 background places without waiting");
  // A 21st background place is in the next window, not this one.
  const before = await window.taken(start);
  await window.acquire({ wait: true, background: true });
  assert.equal(clock.now(), start + 1000, "the 21st background call waited for the next window");
  assert.equal(await window.taken(start), before);
  // The rest of the first window was left to people.
  clock.set(start + 2000);
  await takeAll(window, 20, { wait: true, background: true });
  const searches = await takeAll(window, 20, { wait: false });
  assert.deepEqual(searches, Array(20).fill("ok"), "20 searches fit beside 20 background calls");
  assert.deepEqual(await takeAll(window, 1, { wait: false }), ["rate_limited"]);
  assert.equal(await window.taken(start + 2000), 40);
});

Deno.test("a background caller in a window people filled waits like anyone else", async () => {
  await using kv = await Deno.openKv(":memory:");
  const clock = new FakeClock("2026-11-22T12:00:00.000Z");
  const window = createExternalWindow(kv, { clock });
  const start = clock.now();
  assert.deepEqual(await takeAll(window, 40, { wait: false }), Array(40).fill("ok"));
  await window.acquire({ wait: true, background: true });
  assert.equal(clock.now(), start + 1000);
});

/** A KV whose every commit lasts longer than a window on the clock. */
function slowCommits(kv: Deno.Kv, clock: FakeClock, ms: number): Deno.Kv {
  return onCommit(kv, () => clock.advance(ms));
}

Deno.test("a waiting caller ends with 503 upstream_busy within 5 s when every KV round outlasts the window", async () => {
  await using kv = await Deno.openKv(":memory:");
  const clock = new FakeClock("2026-11-22T12:00:00.000Z");
  const window = createExternalWindow(slowCommits(kv, clock, 1200), { clock });
  const start = clock.now();
  await assert.rejects(
    () => window.acquire({ wait: true }),
    (error) => error instanceof Problem && error.status === 503 && error.code === "upstream_busy",
  );
  // The last round began before the 5 s bound and lasted one slow commit.
  assert.ok(clock.now() - start <= 5000 + 1200, `ended after ${clock.now() - start} ms`);
});

Deno.test("a search answers 429 within one window when the KV round outlasts the window", async () => {
  await using kv = await Deno.openKv(":memory:");
  const clock = new FakeClock("2026-11-22T12:00:00.000Z");
  const window = createExternalWindow(slowCommits(kv, clock, 1200), { clock });
  const start = clock.now();
  await assert.rejects(
    () => window.acquire({ wait: false }),
    (error) => error instanceof Problem && error.status === 429 && error.code === "rate_limited",
  );
  assert.ok(clock.now() - start <= 1000 + 1200, `ended after ${clock.now() - start} ms`);
});
