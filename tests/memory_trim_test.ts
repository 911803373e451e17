/** The C heap's trim (lib/memory_trim.ts): available where the server runs, harmless elsewhere. */
import assert from "node:assert/strict";
import { idleTrim, loadMallocTrim, trimWhenIdle } from "../lib/memory_trim.ts";

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
  const running = trimWhenIdle({ periodMs: 60_000 });
  assert.equal(running !== null, glibc);
  running?.activity();
  running?.stop();
});

Deno.test("the idle rule trims after start-up and after a burst, never in a period with requests", () => {
  let trims = 0;
  const rule = idleTrim(() => ++trims);
  assert.equal(rule.tick(), true, "idle since start-up: trims");
  assert.equal(rule.tick(), false, "nothing happened since: no second trim");
  rule.activity();
  assert.equal(rule.tick(), false, "a request in this period: busy, no trim");
  rule.activity();
  assert.equal(rule.tick(), false, "still busy");
  assert.equal(rule.tick(), true, "a whole period without requests after the burst: trims");
  assert.equal(rule.tick(), false);
  assert.equal(trims, 2);
});
