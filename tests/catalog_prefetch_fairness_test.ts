/**
 * The details fetch after a user's write is background work and bounded per user (issue 43,
 * item 3; docs/catalog.md, "Prefetch after a write"): one user writing many films the store lacks
 * cannot make another user's search fail.
 */
import assert from "node:assert/strict";
import { FakeClock } from "@/lib/core/clock.ts";
import { memoryLogger } from "@/lib/core/log.ts";
import { BACKGROUND_SHARE, WINDOW_LIMIT } from "@/lib/catalog/external_window.ts";
import type { DetailsOutcome } from "@/lib/catalog/types.ts";
import { PREFETCH_PER_USER, userPrefetch } from "@/lib/catalog/user_prefetch.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { json, makeList } from "./helpers/lists.ts";
import { settledApp } from "./helpers/settled.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";

/**
 * A fake clock whose sleeps end only when the test moves it: a caller waiting for the next
 * window keeps waiting, so the window the test looks at stays the one its writes were made in
 * (FakeClock would jump to the next window at the first wait).
 */
class HeldClock extends FakeClock {
  #sleepers: { until: number; wake: () => void }[] = [];

  override sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    const until = this.now() + ms;
    return new Promise((wake) => this.#sleepers.push({ until, wake }));
  }

  override advance(ms: number): void {
    super.advance(ms);
    const due = this.#sleepers.filter((s) => s.until <= this.now());
    this.#sleepers = this.#sleepers.filter((s) => s.until > this.now());
    for (const s of due) s.wake();
  }
}

const UNKNOWN = Array.from({ length: 60 }, (_, i) => 7_000_001 + i);

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a user writing 60 unknown films leaves another user's 20 searches in the same window answering 200`, async () => {
    await using fake = await startFakeTmdb();
    const clock = new HeldClock("2026-11-22T12:00:00.000Z");
    await using t = await settledApp({ env: tmdbEnv(fake), clock, engine });
    const writer = await createUser(t.deps);
    const searcher = await createUser(t.deps);
    const listId = await makeList(t, writer);
    // Every writer that prefetches: My List, watched, the diary, an own list.
    const writes: [string, (id: number) => unknown][] = [
      ["/api/mylist", (catalogId) => ({ catalogId })],
      ["/api/watched", (catalogId) => ({ catalogId })],
      ["/api/diary", (catalogId) => ({ catalogId, watchedOn: "2026-11-20" })],
      [`/api/lists/${listId}/items`, (catalogId) => ({ catalogId })],
    ];
    for (const [i, id] of UNKNOWN.entries()) {
      const [path, body] = writes[i % writes.length];
      const res = await t.request(path, json(writer, "POST", body(id)));
      assert.ok(res.status === 200 || res.status === 201, `${path}: ${res.status}`);
      await res.body?.cancel();
    }
    await t.settled();
    // The writer's fetches took the window's background share and wait for the next window.
    const share = WINDOW_LIMIT * BACKGROUND_SHARE;
    const fetchedInWindow = fake.requests.filter((r) => r.path.startsWith("/movie/")).length;
    assert.equal(fetchedInWindow, share);

    const statuses: number[] = [];
    for (let n = 0; n < WINDOW_LIMIT - share; n++) {
      const res = await t.request(`/api/movies/search?q=Fight%20${n}`, {
        headers: searcher.headers,
      });
      statuses.push(res.status);
      await res.body?.cancel();
    }
    assert.deepEqual(statuses, Array(WINDOW_LIMIT - share).fill(200));
    // The window is full now, for everyone.
    const full = await t.request("/api/movies/search?q=Heat", { headers: searcher.headers });
    assert.equal(full.status, 429);
    await full.body?.cancel();

    // Later windows: what the writer had waiting is fetched; the rest was left to the details job.
    for (let second = 0; second < 6; second++) {
      clock.advance(1000);
      await t.settled();
    }
    const fetched = new Set(
      fake.requests.filter((r) => r.path.startsWith("/movie/")).map((r) => r.path),
    );
    assert.ok(
      fetched.size <= share + PREFETCH_PER_USER,
      `at most the window's share and one user's ${PREFETCH_PER_USER} waiting: ${fetched.size}`,
    );
    assert.ok(fetched.size < UNKNOWN.length);
    assert.ok(t.logs.some((l) => l.msg === "prefetch left to the details job"));
  });
}

/** A catalog whose prefetch is held until the test lets it go, recording what it was asked. */
function heldCatalog() {
  const asked: { ids: number[]; background?: boolean }[] = [];
  let release!: () => void;
  let held = new Promise<void>((r) => release = r);
  return {
    asked,
    release: () => {
      release();
      held = new Promise<void>((r) => release = r);
    },
    catalog: {
      async prefetch(ids: number[], options?: { background?: boolean }): Promise<DetailsOutcome> {
        asked.push({ ids, background: options?.background });
        await held;
        return { fetched: ids.length, failed: [] };
      },
    },
  };
}

Deno.test("a user's prefetch holds at most 20 ids at once, as background work; the rest is left, and room comes back", async () => {
  const { asked, release, catalog } = heldCatalog();
  const log = memoryLogger();
  const prefetch = userPrefetch(catalog, { log });
  const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

  const first = prefetch("u1", ids(1, PREFETCH_PER_USER + 5));
  assert.deepEqual(asked, [{ ids: ids(1, PREFETCH_PER_USER), background: true }]);
  assert.deepEqual(log.lines.map((l) => [l.msg, l.deferred]), [
    ["prefetch left to the details job", 5],
  ]);
  // Full: another id waits for nothing; one already waiting is not asked twice.
  prefetch("u1", [500, 1]);
  assert.equal(log.lines.at(-1)?.deferred, 1);
  // Another user has room of their own.
  prefetch("u2", [900]);
  assert.deepEqual(asked.at(-1), { ids: [900], background: true });

  release();
  await first;
  // Once its ids are fetched, the user has room again.
  const second = prefetch("u1", [600, 601]);
  assert.deepEqual(asked.at(-1), { ids: [600, 601], background: true });
  release();
  await second;
  assert.equal(asked.length, 3);
});

Deno.test("ids past a user's bound of 20 ask the details job for a run; 20 at the edge ask nothing", async () => {
  const { release, catalog } = heldCatalog();
  let asks = 0;
  const prefetch = userPrefetch(catalog, { log: memoryLogger(), askDetails: () => asks++ });
  const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
  const first = prefetch("u1", ids(1, PREFETCH_PER_USER));
  assert.equal(asks, 0);
  // The 21st id is left to the details job, which is asked for a run rather than its next tick.
  prefetch("u1", [PREFETCH_PER_USER + 1]);
  assert.equal(asks, 1);
  // An id already waiting is not past the bound: nothing is asked.
  prefetch("u1", [1]);
  assert.equal(asks, 1);
  release();
  await first;
});

Deno.test("ids written while a user's fetch runs go in the next round, up to the bound", async () => {
  const { asked, release, catalog } = heldCatalog();
  const prefetch = userPrefetch(catalog, { log: memoryLogger(), perUser: 3 });
  const done = prefetch("u1", [1, 2]);
  prefetch("u1", [3, 4]);
  assert.deepEqual(asked.map((a) => a.ids), [[1, 2]]);
  release();
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(asked.map((a) => a.ids), [[1, 2], [3]]);
  release();
  await done;
});

Deno.test("a prefetch that throws is logged, frees its ids and never rejects", async () => {
  const log = memoryLogger();
  let calls = 0;
  const prefetch = userPrefetch({
    prefetch: () => {
      calls++;
      return Promise.reject(new Error("store down"));
    },
  }, { log, perUser: 1 });
  await prefetch("u1", [1]);
  assert.equal(log.lines[0].msg, "prefetch failed");
  await prefetch("u1", [2]);
  assert.equal(calls, 2);
});
