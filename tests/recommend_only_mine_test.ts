import assert from "node:assert/strict";
import { P, regionOffers } from "./helpers/availability_world.ts";
import { NETFLIX } from "./helpers/availability_world.ts";
import { recommendWorld } from "./helpers/recommend_world.ts";

// Films 36, 39, ... 60 stream on Netflix in the US; every other film only rents there.
const AVAILABLE = Array.from({ length: 9 }, (_, i) => 36 + 3 * i);

Deno.test("onlyMine: the prompt names my services, picks not available to me are dropped and the rounds go on", async () => {
  await using w = await recommendWorld();
  const { t, ai, user } = w;
  const streams = JSON.stringify({ US: regionOffers({ flatrate: [NETFLIX] }) });
  const rents = JSON.stringify({ US: regionOffers({ rent: [NETFLIX] }) });
  await t.store.query(
    `update public.movies set providers_cached_at = $1,
       watch_providers = (case when catalog_id = any ($2::int[]) then $3 else $4 end)::jsonb`,
    [new Date(t.clock.now()).toISOString(), AVAILABLE, streams, rents],
  );
  const put = await t.request("/api/me/services", {
    method: "PUT",
    headers: { ...user.headers, "content-type": "application/json" },
    body: JSON.stringify({ providers: [P(8)], onlyMine: true }),
  });
  assert.equal(put.status, 200);
  const res = await w.get("/api/recommend");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.deepEqual([...body.recommendations].sort((a: number, b: number) => a - b), AVAILABLE);
  // Round one's picks (the first films the model names) were none of them available: the
  // rounds went on.
  assert.ok(ai.requests.length >= 2);
  const prompt = ai.requests[0].body.messages.find((m: { role: string }) => m.role === "user")
    .content;
  assert.match(prompt, /stream in region US .* on: Netflix\./);
  // The stored set says where each pick streams on my services.
  const current = await (await w.get("/api/recommend/current")).json();
  for (const pick of current.recommendations) {
    assert.deepEqual(pick.availability, [{ id: P(8), name: "Netflix", kind: "flatrate" }]);
  }
});

Deno.test("onlyMine off (or no services): recommendations are not filtered and the prompt names none", async () => {
  await using w = await recommendWorld();
  const res = await w.get("/api/recommend");
  assert.equal(res.status, 200);
  assert.equal(w.ai.requests.length, 1);
  const prompt = w.ai.requests[0].body.messages.find((m: { role: string }) => m.role === "user")
    .content;
  assert.doesNotMatch(prompt, /stream in region/);
});
