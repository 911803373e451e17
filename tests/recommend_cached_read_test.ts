import type { Kv } from "../lib/kv.ts";
import assert from "node:assert/strict";
import { FakeClock } from "../lib/clock.ts";
import { takeGenerationLease } from "../lib/recommend/lease.ts";
import { recommendWorld } from "./helpers/recommend_world.ts";

// Every KV entry with its versionstamp: equal snapshots mean nothing was written in between.
async function snapshot(kv: Kv): Promise<string[]> {
  const out: string[] = [];
  for await (const e of kv.list({ prefix: [] })) {
    out.push(`${JSON.stringify(e.key)}@${e.versionstamp}`);
  }
  return out;
}

Deno.test("a fresh cached recommendation set is answered without the lease, writing nothing", async () => {
  const clock = new FakeClock();
  await using w = await recommendWorld({ clock });
  const first = await w.get("/api/recommend");
  assert.equal(first.status, 200);
  assert.equal((await first.json()).cached, false);
  const before = await snapshot(w.t.kv);
  for (let i = 0; i < 3; i++) {
    const res = await w.get("/api/recommend");
    assert.equal(res.status, 200);
    assert.equal((await res.json()).cached, true);
  }
  assert.deepEqual(await snapshot(w.t.kv), before, "no KV write on a cached answer");
  assert.equal(w.ai.requests.length, 1);
});

Deno.test("while a generation is in progress even a fresh cached set answers 409, found by reading the lease", async () => {
  const clock = new FakeClock();
  await using w = await recommendWorld({ clock });
  assert.equal((await w.get("/api/recommend")).status, 200);
  const running = await takeGenerationLease(w.t.kv, w.user.id, { clock });
  assert.ok(running);
  const before = await snapshot(w.t.kv);
  const res = await w.get("/api/recommend");
  assert.equal(res.status, 409);
  assert.equal((await res.json()).code, "generation_in_progress");
  assert.deepEqual(await snapshot(w.t.kv), before, "the 409 took nothing and wrote nothing");
  await running.release();
  const after = await w.get("/api/recommend");
  assert.equal(after.status, 200);
  assert.equal((await after.json()).cached, true);
});
