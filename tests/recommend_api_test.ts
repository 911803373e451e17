/**
 * GET /api/recommend's cached set: generated once, reused for 7 days, regenerated on a new
 * history, refresh or getNew.
 */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { watchedHash } from "../lib/recommend/cache.ts";
import {
  assertQuotaHeaders,
  avoidedTitles,
  FIRST_SET,
  markWatched,
  POOL,
  recommendWorld,
  setMyList,
  WATCHED,
} from "./helpers/recommend_world.ts";

const DAY = 86_400_000;

Deno.test("GET /api/recommend generates and stores a set, then serves it from the cache without the provider", async () => {
  await using w = await recommendWorld();
  const first = await w.get("/api/recommend");
  assert.equal(first.status, 200);
  assert.deepEqual(await first.json(), {
    recommendations: FIRST_SET,
    cached: false,
    stale: false,
    regenerationError: null,
    staleRecommendations: null,
    source: "ai",
  });
  assertQuotaHeaders(first, 19);
  const [row] = await w.t.store.query<
    { catalog_ids: number[]; watched_hash: string; expires_at: Date }
  >(
    "select catalog_ids, watched_hash, expires_at from public.recommendations where user_id = $1",
    [w.user.id],
  );
  assert.deepEqual(row.catalog_ids, FIRST_SET);
  assert.equal(row.watched_hash, await watchedHash(WATCHED));
  assert.equal(new Date(row.expires_at).getTime(), w.t.clock.now() + 7 * DAY);

  const second = await w.get("/api/recommend");
  assert.equal(second.status, 200);
  assert.deepEqual(await second.json(), {
    recommendations: FIRST_SET,
    cached: true,
    stale: false,
    regenerationError: null,
    staleRecommendations: null,
    source: "ai",
  });
  assertQuotaHeaders(second, 19);
  assert.equal(w.ai.requests.length, 1);
});

Deno.test("GET /api/recommend regenerates when the watched history changes", async () => {
  await using w = await recommendWorld();
  await w.get("/api/recommend");
  await markWatched(w.t.store, w.user.id, [15]);
  const res = await w.get("/api/recommend");
  const body = await res.json();
  assert.equal(body.cached, false);
  assert.ok(!body.recommendations.includes(15));
  assert.equal(w.ai.requests.length, 2);
});

Deno.test("GET /api/recommend reuses a set for 7 days and regenerates after", async () => {
  const clock = new FakeClock("2026-11-22T12:00:00Z");
  await using w = await recommendWorld({ clock });
  await w.get("/api/recommend");
  clock.advance(7 * DAY - 1);
  assert.equal((await (await w.get("/api/recommend")).json()).cached, true);
  clock.advance(1);
  const res = await w.get("/api/recommend");
  assert.equal((await res.json()).cached, false);
  assert.equal(w.ai.requests.length, 2);
});

Deno.test("GET /api/recommend: a My List change alone does not invalidate the cached set", async () => {
  await using w = await recommendWorld();
  await w.get("/api/recommend");
  await setMyList(w.t.store, w.user.id, [30, 31]);
  const body = await (await w.get("/api/recommend")).json();
  assert.equal(body.cached, true);
  assert.deepEqual(body.recommendations, FIRST_SET);
});

Deno.test("GET /api/recommend?refresh=true and refresh=1 regenerate and overwrite the cache", async () => {
  await using w = await recommendWorld();
  await w.get("/api/recommend");
  for (const flag of ["true", "1"]) {
    const res = await w.get(`/api/recommend?refresh=${flag}`);
    assert.equal(res.status, 200);
    assert.equal((await res.json()).cached, false);
  }
  assert.equal(w.ai.requests.length, 3);
  const res = await w.get("/api/recommend?refresh=false");
  assert.equal((await res.json()).cached, true);
  assertQuotaHeaders(res, 17);
});

Deno.test("GET /api/recommend?getNew=1 excludes the previous set and stores the new one", async () => {
  await using w = await recommendWorld();
  await w.get("/api/recommend");
  const res = await w.get("/api/recommend?getNew=1");
  const body = await res.json();
  assert.equal(body.cached, false);
  assert.ok(body.recommendations.length >= 5);
  for (const id of FIRST_SET) assert.ok(!body.recommendations.includes(id), `${id} came back`);
  // The previous titles were listed for the AI to avoid.
  const avoided = avoidedTitles(w.ai.requests[1]);
  for (const id of FIRST_SET) {
    const movie = POOL[id - 1];
    assert.ok(avoided.has(`${movie.title} (${movie.year})`));
  }
  // My List filtering still applies: 13 and 14 are the My List pair now, last.
  assert.deepEqual(body.recommendations.slice(-2), [13, 14]);
  const cached = await (await w.get("/api/recommend")).json();
  assert.deepEqual(cached.recommendations, body.recommendations);
  assert.equal(cached.cached, true);
});
