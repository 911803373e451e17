import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { modelLike, POOL, recommendWorld } from "./helpers/recommend_world.ts";
import { markWatched } from "./helpers/recommend_world.ts";

const DAY = 86_400_000;

async function used(w: { get(path: string): Promise<Response> }): Promise<number> {
  return (await (await w.get("/api/recommend/quota")).json()).used;
}

Deno.test("GET /api/recommend/current without a token answers 401", async () => {
  await using w = await recommendWorld();
  const res = await w.t.request("/api/recommend/current");
  assert.equal(res.status, 401);
  assert.equal((await res.json()).code, "unauthorized");
});

Deno.test("GET /api/recommend/current with no stored set answers 404 no_recommendations and spends nothing", async () => {
  await using w = await recommendWorld();
  const res = await w.get("/api/recommend/current");
  assert.equal(res.status, 404);
  assert.match(res.headers.get("content-type") ?? "", /^application\/problem\+json/);
  assert.equal((await res.json()).code, "no_recommendations");
  assert.equal(w.ai.requests.length, 0);
  assert.equal(await used(w), 0);
});

Deno.test("GET /api/recommend/current answers the stored set with reasons, times and freshness", async () => {
  const clock = new FakeClock();
  await using w = await recommendWorld({ clock });
  const made = clock.now();
  const generated = await (await w.get("/api/recommend")).json();
  const res = await w.get("/api/recommend/current");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("x-ratelimit-remaining"), "19");
  const body = await res.json();
  assert.deepEqual(Object.keys(body).sort(), [
    "createdAt",
    "expiresAt",
    "fresh",
    "recommendations",
  ]);
  assert.deepEqual(
    body.recommendations.map((r: { catalogId: number }) => r.catalogId),
    generated.recommendations,
  );
  assert.equal(body.recommendations[0].reason, "Because you like Film 15.");
  assert.equal(body.createdAt, new Date(made).toISOString());
  assert.equal(body.expiresAt, new Date(made + 7 * DAY).toISOString());
  assert.equal(body.fresh, true);
  assert.equal(await used(w), 1);

  // A new watched movie changes the hash: the set is still there, no longer fresh.
  await markWatched(w.t.store, w.user.id, [40]);
  assert.equal((await (await w.get("/api/recommend/current")).json()).fresh, false);
  await markWatched(w.t.store, w.user.id, []);
  // Expired sets are shown too, marked not fresh; nothing is generated for them.
  clock.advance(8 * DAY);
  const late = await (await w.get("/api/recommend/current")).json();
  assert.equal(late.fresh, false);
  assert.equal(w.ai.requests.length, 1);
  assert.equal(await used(w), 0); // a new UTC day, and nothing spent on it
});

Deno.test("GET /api/recommend/current answers at once while a generation runs: no lock, no quota", async () => {
  await using w = await recommendWorld();
  assert.equal((await w.get("/api/recommend")).status, 200);
  const answer = modelLike(POOL.slice(30));
  // The fake holds its answer until the test opens the gate, and says when it has the request:
  // the generation is running for exactly as long as the test needs, however busy the machine.
  const gate = Promise.withResolvers<void>();
  const asked = Promise.withResolvers<void>();
  w.ai.fallback = (request) => {
    asked.resolve();
    return { ...answer(request), heldUntil: gate.promise };
  };
  const running = w.get("/api/recommend?refresh=1");
  try {
    await asked.promise;
    // The generation holds the lock: another generation is refused...
    assert.equal((await w.get("/api/recommend?refresh=1")).status, 409);
    // ...but the current set is read without it, and costs nothing.
    const current = await w.get("/api/recommend/current");
    assert.equal(current.status, 200);
    assert.equal((await current.json()).recommendations.length, 8);
    assert.equal(await used(w), 2);
  } finally {
    gate.resolve();
  }
  const done = await running;
  assert.equal(done.status, 200);
  assert.equal((await done.json()).cached, false);
  assert.equal(w.ai.requests.length, 2);
});
