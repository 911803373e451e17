/** Many refreshes at once for one user: one generation, one quota unit, the rest 409. */
import assert from "node:assert/strict";
import { modelLike, POOL, recommendWorld } from "./helpers/recommend_world.ts";

Deno.test("50 concurrent GET /api/recommend?refresh=1 for one user: one generation, 49 answer 409 generation_in_progress", async () => {
  await using w = await recommendWorld();
  const answer = modelLike(POOL);
  // A first, cached set: every refresh below must bypass it, so none is answered from cache.
  w.ai.fallback = answer;
  assert.equal((await w.get("/api/recommend")).status, 200);
  const before = w.ai.requests.length;
  w.ai.fallback = (request) => ({ ...answer(request), delayMs: 500 });

  const responses = await Promise.all(
    Array.from({ length: 50 }, () => w.get("/api/recommend?refresh=1")),
  );
  const statuses = responses.map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join(","));
  assert.equal(statuses.filter((s) => s === 409).length, 49, statuses.join(","));
  for (const res of responses) {
    const body = await res.json();
    if (res.status === 409) assert.equal(body.code, "generation_in_progress");
    else assert.equal(body.cached, false);
  }
  assert.equal(w.ai.requests.length - before, 1, "one generation reached the provider");
  const quota = await (await w.get("/api/recommend/quota")).json();
  assert.equal(quota.used, 2, "the first set and the one refresh; no unit for a 409");
});
