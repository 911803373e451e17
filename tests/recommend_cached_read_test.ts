import type { Kv } from "../lib/platform/kv/kv.ts";
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { watchedHash, writeStoredSet } from "../lib/recommend/cache.ts";
import { readHistoryState } from "../lib/recommend/cached_read.ts";
import { takeGenerationLease } from "../lib/recommend/lease.ts";
import { testApp } from "./helpers/app.ts";
import {
  assertQuotaHeaders,
  markWatched,
  POOL,
  recommendWorld,
  seedMovies,
} from "./helpers/recommend_world.ts";
import { ENGINES } from "./helpers/store.ts";
import { issueAccessToken } from "./helpers/tokens.ts";
import { createUser } from "./helpers/users.ts";

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

Deno.test("a cached recommendation is one statement and carries the quota read beside it", async () => {
  const clock = new FakeClock();
  await using w = await recommendWorld({ clock });
  assert.equal((await w.get("/api/recommend")).status, 200);
  const before = w.t.store.stats.queries;
  const res = await w.get("/api/recommend");
  assert.equal(res.status, 200);
  assert.equal((await res.json()).cached, true);
  assert.equal(w.t.store.stats.queries - before, 1, "the session, the set and the hash at once");
  assertQuotaHeaders(res, 19);
});

Deno.test("a cached read whose session has ended answers 401, before a generation's 409", async () => {
  const clock = new FakeClock();
  await using w = await recommendWorld({ clock });
  assert.equal((await w.get("/api/recommend")).status, 200);
  const ended = await issueAccessToken(w.t.deps, { id: w.user.id, email: w.user.email }, {
    sessionId: crypto.randomUUID(),
  });
  const headers = { authorization: `Bearer ${ended.token}` };
  const res = await w.t.request("/api/recommend", { headers });
  assert.equal(res.status, 401);
  await res.body?.cancel();
  const running = await takeGenerationLease(w.t.kv, w.user.id, { clock });
  assert.ok(running);
  const during = await w.t.request("/api/recommend", { headers });
  assert.equal(during.status, 401);
  await during.body?.cancel();
  await running.release();
});

for (const engine of ENGINES) {
  Deno.test(`the history's hash computed by the store is the one a generation stores (${engine})`, async () => {
    const clock = new FakeClock();
    await using t = await testApp({ engine, clock, record: false });
    await seedMovies(t.store, POOL);
    const user = await createUser(t.deps);
    // 9 < 10 < 60 as numbers but not as text: the hash sorts them as numbers (docs/api.md).
    const ids = [60, 9, 2, 10];
    await markWatched(t.store, user.id, ids);
    const expiresAt = new Date(clock.now() + 86_400_000);
    const hash = await watchedHash(ids);
    await t.store.asUser(
      user.id,
      (tx) =>
        writeStoredSet(tx, {
          userId: user.id,
          ids: [20, 21],
          watchedHash: hash,
          expiresAt,
          reasons: {},
        }),
    );
    assert.deepEqual(await readHistoryState(t.store, user.id), {
      watchedCount: 4,
      stored: { ids: [20, 21], expiresAt, sameHistory: true },
    });
    await markWatched(t.store, user.id, [11]);
    assert.equal((await readHistoryState(t.store, user.id)).stored?.sameHistory, false);
    const none = await createUser(t.deps);
    assert.deepEqual(await readHistoryState(t.store, none.id), { watchedCount: 0, stored: null });
  });
}
