/**
 * COORDINATION=postgres across machines: two real server processes, each with its own data
 * directory and KV path (no KV file is opened under postgres), on one PostgreSQL. Everything they must share (the external window, the daily
 * recommendation quota, the generation lock) is shared only through PostgreSQL, so these
 * pass only if coordination really lives there. The control shows the same harness with
 * COORDINATION=kv counting per machine. Needs TEST_DATABASE_URL (a fresh database is made on
 * its server and dropped after).
 */
import assert from "node:assert/strict";
import { TEST_DATABASE_URL } from "./helpers/store.ts";
import { type SharedUser, startTwoInstances, type TwoInstances } from "./helpers/two_instances.ts";
import { windowCounts } from "./helpers/window_counts.ts";
import { modelLike, POOL } from "./helpers/recommend_world.ts";

const SKIP = !TEST_DATABASE_URL;
if (SKIP) {
  console.log(
    "coordination_two_process_test.ts: skipped, TEST_DATABASE_URL is unset (two processes " +
      "need a PostgreSQL server to share)",
  );
}

/** An answer of an instance, its body read. */
interface Answer {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
  headers: Headers;
}

async function get(origin: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${origin}${path}`, { headers });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/**
 * Waits out the last two minutes of a UTC day: the quota is counted per UTC day on the
 * processes' own clocks, which a test cannot move, and a day turning over mid-run would
 * restart the count.
 */
async function awayFromMidnight(): Promise<void> {
  const now = Date.now();
  const untilMidnight = 86_400_000 - now % 86_400_000;
  if (untilMidnight < 120_000) {
    await new Promise((resolve) => setTimeout(resolve, untilMidnight + 1000));
  }
}

/** Generations 1-20 for `user`, alternating instances (the first on A); returns the answers. */
async function twentyGenerations(two: TwoInstances, user: SharedUser): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < 20; i++) {
    const path = i === 0 ? "/api/recommend" : "/api/recommend?refresh=1";
    answers.push(await get(two.origins[i % 2], path, user.headers));
  }
  return answers;
}

/**
 * Resolves just after a wall-clock second began, so a burst fired then has most of one window
 * to land in: machines counting apart would then both fill the same window, which the fake
 * sees. Only aims the burst; nothing asserts on time.
 */
async function startOfSecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1000 - Date.now() % 1000 + 20));
}

async function searchBurst(two: TwoInstances): Promise<void> {
  await startOfSecond();
  two.tmdb.requests.length = 0;
  // Distinct queries, so no answer comes from a cache and every 200 took a window place.
  const answers = await Promise.all(
    Array.from(
      { length: 120 },
      (_, i) => get(two.origins[i % 2], `/api/movies/search?q=${encodeURIComponent(`burst ${i}`)}`),
    ),
  );
  for (const [i, answer] of answers.entries()) {
    assert.ok([200, 429].includes(answer.status), `search ${i}: ${answer.status}`);
    if (answer.status === 429) assert.equal(answer.body.code, "rate_limited");
  }
  const served = answers.filter((a) => a.status === 200).length;
  assert.ok(served > 0, "some searches were served");
  // Two processes on a loaded machine: a call granted late in a second may reach the fake a
  // while into the next, and is counted where it was granted while that window has room.
  const counts = windowCounts(two.tmdb.requests.map((r) => r.at), { transitMs: 250 });
  const busiest = Math.max(...counts.values());
  assert.ok(
    busiest <= 40,
    `the fake TMDB saw ${busiest} calls in one window (${served} searches served, ` +
      `${answers.length - served} refused; per window: ${[...counts.values()].join(",")})`,
  );
}

async function quotaAcrossBoth(two: TwoInstances): Promise<void> {
  await awayFromMidnight();
  const user = await two.addUser();
  const before = two.ai.requests.length;
  const answers = await twentyGenerations(two, user);
  for (const [i, answer] of answers.entries()) {
    assert.equal(answer.status, 200, `generation ${i + 1}: ${answer.body?.code}`);
    assert.equal(answer.body.cached, false, `generation ${i + 1} generated`);
    assert.equal(answer.headers.get("x-ratelimit-remaining"), String(19 - i));
  }
  for (const origin of two.origins) {
    const refused = await get(origin, "/api/recommend?refresh=1", user.headers);
    assert.equal(refused.status, 429, `the 21st on ${origin}`);
    assert.equal(refused.body.code, "quota_exceeded");
    assert.equal(refused.headers.get("x-ratelimit-remaining"), "0");
    const quota = await get(origin, "/api/recommend/quota", user.headers);
    assert.equal(quota.body.used, 20, `the quota as ${origin} reads it`);
    assert.equal(quota.body.remaining, 0);
  }
  assert.equal(two.ai.requests.length - before, 20, "20 generations reached the provider");
}

async function oneGenerationAtOnce(two: TwoInstances): Promise<void> {
  const user = await two.addUser();
  const answer = modelLike(POOL);
  // A first set, so each refresh below must bypass a cache to generate.
  assert.equal((await get(two.origins[0], "/api/recommend", user.headers)).status, 200);
  const before = two.ai.requests.length;
  // The provider holds the one generation until the nine others were answered (so none of
  // them can start after it ends), or until a second generation arrives, which is the failure.
  const gate = Promise.withResolvers<void>();
  const safety = setTimeout(gate.resolve, 120_000);
  two.ai.fallback = (request) => {
    if (two.ai.requests.length - before >= 2) gate.resolve();
    return { ...answer(request), heldUntil: gate.promise };
  };
  let settled = 0;
  try {
    const answers = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const res = await get(two.origins[i % 2], "/api/recommend?refresh=1", user.headers);
        if (++settled === 9) gate.resolve();
        return res;
      }),
    );
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409)) {
      assert.equal(refused.body.code, "generation_in_progress");
    }
    assert.equal(answers.find((a) => a.status === 200)!.body.cached, false);
    assert.equal(two.ai.requests.length - before, 1, "one generation reached the provider");
    const quota = await get(two.origins[1], "/api/recommend/quota", user.headers);
    assert.equal(quota.body.used, 2, "the first set and the one refresh; no unit for a 409");
  } finally {
    clearTimeout(safety);
    gate.resolve();
    two.ai.fallback = answer;
  }
}

Deno.test({
  name:
    "COORDINATION=postgres, two processes with nothing in common but one PostgreSQL: one window, one quota, one generation lock",
  ignore: SKIP,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using two = await startTwoInstances(TEST_DATABASE_URL!, "postgres");
    await t.step(
      "120 concurrent searches split across both never put more than 40 calls in a 1-second window at the fake TMDB",
      () => searchBurst(two),
    );
    await t.step(
      "one user's 20 generations a day hold across both: the 21st refresh is refused 429 quota_exceeded on either",
      () => quotaAcrossBoth(two),
    );
    await t.step(
      "10 concurrent refreshes of one user across both give one generation at the fake AI, nine 409 generation_in_progress",
      () => oneGenerationAtOnce(two),
    );
  },
});

Deno.test({
  name:
    "control: COORDINATION=kv, two processes with a KV file each count the quota per machine (the 21st generation is granted)",
  ignore: SKIP,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using two = await startTwoInstances(TEST_DATABASE_URL!, "kv");
    await awayFromMidnight();
    const user = await two.addUser();
    const answers = await twentyGenerations(two, user);
    assert.deepEqual(answers.map((a) => a.status), Array(20).fill(200));
    // Each machine counted only its own ten: this harness sees what separate KV files lose.
    assert.equal(answers[19].headers.get("x-ratelimit-remaining"), "10");
    const extra = await get(two.origins[0], "/api/recommend?refresh=1", user.headers);
    assert.equal(extra.status, 200, "the 21st generation of the day, granted by machine A");
    assert.equal(extra.headers.get("x-ratelimit-remaining"), "9");
  },
});
