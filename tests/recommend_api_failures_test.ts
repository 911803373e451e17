/**
 * GET /api/recommend when generation fails: the stale set with 200 or a retryable 503, else the
 * error.
 */
import assert from "node:assert/strict";
import {
  assertQuotaHeaders,
  FIRST_SET,
  markWatched,
  recommendWorld,
} from "./helpers/recommend_world.ts";

Deno.test("a failed regeneration with a stored set answers 200 with the stale shape", async () => {
  await using w = await recommendWorld();
  await w.get("/api/recommend");
  w.ai.fallback = () => ({ content: "Sorry, I cannot help with that." });
  const res = await w.get("/api/recommend?refresh=1");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.deepEqual(Object.keys(body).sort(), [
    "cached",
    "recommendations",
    "regenerationError",
    "source",
    "stale",
    "staleRecommendations",
  ]);
  assert.equal(body.source, "ai");
  assert.deepEqual(body.recommendations, []);
  assert.equal(body.cached, false);
  assert.equal(body.stale, true);
  assert.deepEqual(body.staleRecommendations, FIRST_SET);
  assert.equal(body.regenerationError.status, 502);
  assert.equal(body.regenerationError.code, "ai_bad_output");
  assert.equal(typeof body.regenerationError.message, "string");
  assert.equal(body.regenerationError.retryable, false);
  assertQuotaHeaders(res, 18);
  // The stored set is untouched.
  const [row] = await w.t.store.query<{ catalog_ids: number[] }>(
    "select catalog_ids from public.recommendations where user_id = $1",
    [w.user.id],
  );
  assert.deepEqual(row.catalog_ids, FIRST_SET);
});

Deno.test("a regeneration the providers cannot serve is stale with a retryable 503, and refunds", async () => {
  await using w = await recommendWorld();
  await w.get("/api/recommend");
  await markWatched(w.t.store, w.user.id, [40]);
  w.ai.fallback = () => ({ status: 503, body: { error: { message: "overloaded" } } });
  const res = await w.get("/api/recommend");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.stale, true);
  assert.deepEqual(body.staleRecommendations, FIRST_SET);
  assert.deepEqual(
    { ...body.regenerationError, message: "" },
    { status: 503, code: "ai_unavailable", message: "", retryable: true },
  );
  assertQuotaHeaders(res, 19);
});

Deno.test("a failed generation with nothing stored answers its error status", async () => {
  await using w = await recommendWorld();
  w.ai.fallback = () => ({
    content: '{"recommendations":[{"title":"Not A Real Film","year":2001}]}',
  });
  const bad = await w.get("/api/recommend");
  assert.equal(bad.status, 502);
  assert.match(bad.headers.get("content-type") ?? "", /^application\/problem\+json/);
  assert.equal((await bad.json()).code, "ai_bad_output");
  // Three rounds were tried before giving up.
  assert.equal(w.ai.requests.length, 3);
  assertQuotaHeaders(bad, 19);

  w.ai.fallback = () => ({ status: 500, body: { error: { message: "down" } } });
  const down = await w.get("/api/recommend");
  assert.equal(down.status, 503);
  assert.equal((await down.json()).code, "ai_unavailable");
  assertQuotaHeaders(down, 19);
});
