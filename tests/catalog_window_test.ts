import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { createExternalWindow, reopenAfter429 } from "../lib/catalog/external_window.ts";
import { Problem } from "../lib/core/problem.ts";
import { testApp } from "./helpers/app.ts";
import { onCommit } from "./helpers/kv_commits.ts";
import { detailBody, startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { perWindow, SettlingClock, timedFetch } from "./helpers/sent_calls.ts";
import rateLimitBody from "./fixtures/tmdb/tmdb-error-429-rate-limit.json" with { type: "json" };

async function fill(t: { request(path: string): Promise<Response> }, n: number) {
  const statuses = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const res = await t.request(`/api/movies/search?q=movie${i}`);
      await res.body?.cancel();
      return res.status;
    }),
  );
  return statuses;
}

Deno.test("40 calls in one window pass; the 41st search is 429 with the window's headers", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  const statuses = await fill(t, 40);
  assert.deepEqual(statuses, Array(40).fill(200));
  const res = await t.request("/api/movies/search?q=one-more");
  assert.equal(res.status, 429);
  const body = await res.json();
  assert.equal(body.code, "rate_limited");
  const windowEnd = Math.floor(t.clock.now() / 1000) + 1;
  assert.equal(res.headers.get("x-ratelimit-limit"), "40");
  assert.equal(res.headers.get("x-ratelimit-remaining"), "0");
  assert.equal(res.headers.get("x-ratelimit-reset"), String(windowEnd));
  assert.equal(res.headers.get("retry-after"), "1");
  assert.equal(fake.requests.length, 40);
});

Deno.test("a detail request in a full window waits for the next one", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  const clock = t.clock;
  clock.advance(250);
  const windowStart = Math.floor(clock.now() / 1000) * 1000;
  await fill(t, 40);
  const res = await t.request("/api/movies/550");
  assert.equal(res.status, 200);
  assert.equal(clock.now(), windowStart + 1000, "slept until the next window");
  assert.equal(res.headers.get("x-ratelimit-remaining"), "39");
  assert.equal(res.headers.get("x-ratelimit-reset"), String(windowStart / 1000 + 2));
  assert.equal(fake.requests.length, 41);
});

Deno.test("popular waits too; a window closed past 5 s is 503 upstream_busy without a call", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  await fill(t, 40);
  assert.equal((await t.request("/api/movies/popular")).status, 200);
  assert.equal(fake.requests.length, 41);

  fake.override = () =>
    Response.json(rateLimitBody, { status: 429, headers: { "retry-after": "30" } });
  assert.equal((await t.request("/api/movies/search?q=x")).status, 429);
  fake.override = undefined;
  const before = t.clock.now();
  const res = await t.request("/api/movies/550");
  assert.equal(res.status, 503);
  assert.equal((await res.json()).code, "upstream_busy");
  assert.equal(res.headers.get("retry-after"), "30");
  assert.equal(t.clock.now(), before, "no point waiting for a window that opens after 5 s");
  assert.equal(fake.requests.length, 42);
});

Deno.test("the window takes time from the clock and keys the count in KV", async () => {
  const clock = new FakeClock("2026-11-22T12:00:00.900Z");
  using kv = await Deno.openKv(":memory:");
  const window = createExternalWindow(kv, { clock, limit: 2 });
  assert.equal((await window.acquire({ wait: false }))["X-RateLimit-Remaining"], "1");
  assert.equal((await window.peek())["X-RateLimit-Remaining"], "1");
  await window.acquire({ wait: false });
  await assert.rejects(
    window.acquire({ wait: false }),
    (e) => e instanceof Problem && e.status === 429,
  );
  // Another instance on the same KV sees the same full window.
  const other = createExternalWindow(kv, { clock, limit: 2 });
  await assert.rejects(other.acquire({ wait: false }), (e) => e instanceof Problem);
  assert.equal((await other.acquire({ wait: true }))["X-RateLimit-Remaining"], "1");
  assert.equal(clock.now(), Date.parse("2026-11-22T12:00:01.000Z"));
  // Retry-After in seconds, as an HTTP date, or absent (the next window).
  const now = Date.parse("2026-11-22T12:00:01.250Z");
  assert.equal(reopenAfter429("2", { now }), now + 2000);
  assert.equal(reopenAfter429(null, { now }), Date.parse("2026-11-22T12:00:02.000Z"));
  assert.equal(
    reopenAfter429("Sun, 22 Nov 2026 12:00:05 GMT", { now }),
    Date.parse("2026-11-22T12:00:05Z"),
  );
});

Deno.test("a place whose commit ends after its window is taken again in the window the call leaves in", async () => {
  const clock = new FakeClock("2026-11-22T12:00:00.900Z");
  using kv = await Deno.openKv(":memory:");
  // A KV whose first commit is slow enough to end 200 ms later, in the next window.
  let slow = true;
  const slowKv = onCommit(kv, () => {
    if (slow) clock.advance(200);
    slow = false;
  });
  const window = createExternalWindow(slowKv, { clock, limit: 2 });
  const headers = await window.acquire({ wait: false });
  const nextWindow = Date.parse("2026-11-22T12:00:01.000Z");
  assert.equal(headers["X-RateLimit-Reset"], String(nextWindow / 1000 + 1));
  assert.equal(headers["X-RateLimit-Remaining"], "1");
  assert.equal(await window.taken(nextWindow), 1, "the call is counted in the window it leaves in");
});

Deno.test("two app instances sharing one KV never exceed 40 calls in any window", async () => {
  await using fake = await startFakeTmdb();
  const kvPath = await Deno.makeTempFile({ suffix: ".sqlite3" });
  const kv = await Deno.openKv(kvPath);
  // One clock for both instances, starting at a window boundary; calls are counted by its time
  // when the service sends them, which is what the window governs.
  const clock = new SettlingClock("2026-11-22T12:00:00.000Z");
  const calls = timedFetch(clock);
  try {
    const env = tmdbEnv(fake);
    const options = { env, kv, clock, fetch: calls.fetch };
    await using a = await testApp(options);
    await using b = await testApp({ ...options, store: a.store });
    const ids = Array.from({ length: 120 }, (_, i) => 5_000_000 + i);
    for (const id of ids) fake.movies.set(id, detailBody(id));

    // Searches answer 429 at once when the window is full: of 60, exactly 40 pass.
    const searches = (await Promise.all([fill(a, 30), fill(b, 30)])).flat();
    const passed = searches.filter((s) => s === 200).length;
    assert.equal(passed + searches.filter((s) => s === 429).length, 60);
    assert.equal(calls.sent.length, passed);
    const searchWindows = perWindow(calls.sent);
    for (const n of searchWindows) assert.ok(n <= 40, `${n} calls in one window`);
    assert.equal(searchWindows.length, 1);
    assert.equal(passed, 40);

    // Details wait: all 120 are served, spread so that no window sees more than 40.
    calls.sent.length = 0;
    clock.set(Math.floor(clock.now() / 1000) * 1000 + 1000);
    const statuses = await Promise.all(
      ids.map(async (id, i) => {
        const res = await (i % 2 ? a : b).request(`/api/movies/${id}`);
        await res.body?.cancel();
        return res.status;
      }),
    );
    assert.deepEqual(statuses, Array(120).fill(200));
    assert.equal(calls.sent.length, 120);
    const windows = perWindow(calls.sent);
    for (const n of windows) assert.ok(n <= 40, `${n} calls in one window`);
    assert.ok(windows.length >= 3);
  } finally {
    kv.close();
    await Deno.remove(kvPath).catch(() => {});
  }
});

Deno.test("peekNow answers without KV only while this instance's last look is under 250 ms old", async () => {
  const clock = new FakeClock("2026-11-22T12:00:00.100Z");
  using kv = await Deno.openKv(":memory:");
  const window = createExternalWindow(kv, { clock, limit: 3 });
  assert.equal(window.peekNow(), undefined);
  await window.acquire({ wait: false });
  const peeked = await window.peek();
  assert.equal(peeked["X-RateLimit-Remaining"], "2");
  assert.deepEqual(window.peekNow(), peeked);
  // Another instance's call is not seen until the memo lapses and peek() reads KV again.
  await createExternalWindow(kv, { clock, limit: 3 }).acquire({ wait: false });
  clock.advance(249);
  assert.equal(window.peekNow()?.["X-RateLimit-Remaining"], "2");
  clock.advance(1);
  assert.equal(window.peekNow(), undefined);
  assert.equal((await window.peek())["X-RateLimit-Remaining"], "1");
  assert.equal(window.peekNow()?.["X-RateLimit-Remaining"], "1");
  clock.set("2026-11-22T12:00:01.000Z");
  assert.equal(window.peekNow(), undefined, "nor in a window opened 650 ms after that look");
});

Deno.test("past 100 ms a cached answer still trusts the memo and refreshes it from KV beside it", async () => {
  const clock = new FakeClock("2026-11-22T12:00:00.100Z");
  using kv = await Deno.openKv(":memory:");
  const window = createExternalWindow(kv, { clock, limit: 3 });
  await window.acquire({ wait: false });
  await createExternalWindow(kv, { clock, limit: 3 }).acquire({ wait: false });
  clock.advance(99);
  assert.equal(window.peekNow()?.["X-RateLimit-Remaining"], "2", "under 100 ms: the memo alone");
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(window.peekNow()?.["X-RateLimit-Remaining"], "2", "and no read started");
  clock.advance(1);
  assert.equal(window.peekNow()?.["X-RateLimit-Remaining"], "2", "answered at once, as before");
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(window.peekNow()?.["X-RateLimit-Remaining"], "1", "the read beside it landed");
  clock.advance(249);
  assert.equal(window.peekNow()?.["X-RateLimit-Remaining"], "1", "the memo is as new as the read");
});

Deno.test("a window opened since the last look starts with none taken while the memo holds", async () => {
  const clock = new FakeClock("2026-11-22T12:00:00.900Z");
  using kv = await Deno.openKv(":memory:");
  const window = createExternalWindow(kv, { clock, limit: 3 });
  await window.acquire({ wait: false });
  clock.set("2026-11-22T12:00:01.050Z");
  const headers = window.peekNow();
  assert.equal(headers?.["X-RateLimit-Remaining"], "3");
  assert.equal(headers?.["X-RateLimit-Reset"], String(Date.parse("2026-11-22T12:00:02Z") / 1000));
  clock.set("2026-11-22T12:00:01.150Z");
  assert.equal(window.peekNow(), undefined, "250 ms after the last look it lapses");
});

Deno.test("cached answers waiting on KV at once share one read", async () => {
  const clock = new FakeClock("2026-11-22T12:00:00.100Z");
  using kv = await Deno.openKv(":memory:");
  let reads = 0;
  const counted = new Proxy(kv, {
    get(target, name) {
      if (name === "get") {
        return (key: Deno.KvKey) => {
          reads++;
          return target.get(key);
        };
      }
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const window = createExternalWindow(counted, { clock, limit: 3 });
  const all = await Promise.all(Array.from({ length: 64 }, () => window.peek()));
  assert.equal(reads, 2, "the count and the closed-until, once");
  assert.ok(all.every((h) => h["X-RateLimit-Remaining"] === "3"));
  await window.peek({ fresh: true });
  assert.equal(reads, 4, "an operator's fresh look reads on its own");
});

Deno.test("peek({ fresh: true }) reads KV at once: another instance's place shows inside the 250 ms memo", async () => {
  const clock = new FakeClock("2026-11-22T12:00:00.100Z");
  using kv = await Deno.openKv(":memory:");
  const window = createExternalWindow(kv, { clock, limit: 3 });
  await window.acquire({ wait: false });
  await createExternalWindow(kv, { clock, limit: 3 }).acquire({ wait: false });
  assert.equal((await window.peek())["X-RateLimit-Remaining"], "2", "the memo, as before");
  assert.equal((await window.peek({ fresh: true }))["X-RateLimit-Remaining"], "1");
  assert.equal(window.peekNow()?.["X-RateLimit-Remaining"], "1", "and the memo learns it");
});
