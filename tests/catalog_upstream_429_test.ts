/**
 * TMDB's 429s: a search answers 429 and closes the window; a detail waits, then gives up with 503.
 */
import assert from "node:assert/strict";
import { getJson, testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import rateLimitBody from "./fixtures/tmdb/tmdb-error-429-rate-limit.json" with { type: "json" };

Deno.test("an upstream 429 is 429 rate_limited and closes the window until Retry-After", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  const clock = t.clock;
  fake.override = () =>
    Response.json(rateLimitBody, { status: 429, headers: { "retry-after": "3" } });
  const first = await getJson(t, "/api/movies/search?q=dune");
  assert.equal(first.status, 429);
  assert.equal(first.body.code, "rate_limited");
  assert.equal(first.headers.get("retry-after"), "3");
  assert.equal(first.headers.get("x-ratelimit-remaining"), "0");
  assert.equal(
    first.headers.get("x-ratelimit-reset"),
    String(Math.ceil((t.clock.now() + 3000) / 1000)),
  );
  fake.override = undefined;

  // Closed for everyone: no request leaves until Retry-After has passed.
  clock.advance(2000);
  const blocked = await getJson(t, "/api/movies/search?q=dune");
  assert.equal(blocked.status, 429);
  assert.equal(blocked.headers.get("retry-after"), "1");
  assert.equal(fake.requests.length, 1);

  clock.advance(1000);
  assert.equal((await getJson(t, "/api/movies/search?q=dune")).status, 200);
  assert.equal(fake.requests.length, 2);
});

Deno.test("a detail request waits out an upstream 429 without Retry-After (next window)", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  let refused = false;
  fake.override = () => {
    if (refused) return undefined;
    refused = true;
    return Response.json(rateLimitBody, { status: 429 });
  };
  const started = t.clock.now();
  const res = await getJson(t, "/api/movies/550");
  assert.equal(res.status, 200);
  assert.equal(fake.requests.length, 2);
  assert.equal(t.clock.now(), Math.floor(started / 1000) * 1000 + 1000);
});

Deno.test("a detail request that keeps meeting upstream 429s is 503 upstream_busy, not 429", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  fake.override = () => Response.json(rateLimitBody, { status: 429 });
  const res = await getJson(t, "/api/movies/550");
  assert.equal(res.status, 503);
  assert.equal(res.body.code, "upstream_busy");
  assert.equal(res.headers.get("retry-after"), "1");
  assert.equal(res.headers.get("x-ratelimit-limit"), "40");
  assert.equal(fake.requests.length, 3);
});
