/**
 * GET /api/recommend refuses before generating: no token 401, no history 400, a bad flag 400, no
 * provider 503.
 */
import assert from "node:assert/strict";
import {
  assertQuotaHeaders,
  markWatched,
  POOL,
  recommendWorld,
  seedMovies,
  setMyList,
  WATCHED,
} from "./helpers/recommend_world.ts";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";

Deno.test("GET /api/recommend without a token answers 401 with the rate-limit headers", async () => {
  await using w = await recommendWorld();
  const res = await w.t.request("/api/recommend");
  assert.equal(res.status, 401);
  assert.equal((await res.json()).code, "unauthorized");
  assertQuotaHeaders(res, 0);
  assert.equal(
    res.headers.get("x-ratelimit-reset"),
    String(Date.parse("2026-11-23T00:00:00Z") / 1000),
  );
});

Deno.test("GET /api/recommend with no watched movies answers 400 no_watched_movies and spends nothing", async () => {
  await using w = await recommendWorld();
  const other = await createUser(w.t.deps);
  await setMyList(w.t.store, other.id, [11]);
  const res = await w.t.request("/api/recommend", { headers: other.headers });
  assert.equal(res.status, 400);
  assert.equal((await res.json()).code, "no_watched_movies");
  assertQuotaHeaders(res, 20);
  assert.equal(w.ai.requests.length, 0);
});

Deno.test("GET /api/recommend with a flag that is not true/1/false/0 answers 400", async () => {
  await using w = await recommendWorld();
  const res = await w.get("/api/recommend?refresh=maybe");
  assert.equal(res.status, 400);
  assert.equal((await res.json()).code, "invalid_query");
  assertQuotaHeaders(res, 20);
});

Deno.test("GET /api/recommend with no AI provider configured answers 503 ai_unavailable", async () => {
  await using t = await testApp();
  await seedMovies(t.store, POOL);
  const user = await createUser(t.deps);
  await markWatched(t.store, user.id, WATCHED);
  const res = await t.request("/api/recommend", { headers: user.headers });
  assert.equal(res.status, 503);
  assert.equal((await res.json()).code, "ai_unavailable");
  assertQuotaHeaders(res, 20);
});
