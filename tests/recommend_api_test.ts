import assert from "node:assert/strict";
import { FakeClock } from "../lib/clock.ts";
import { watchedHash } from "../lib/recommend/cache.ts";
import { recommendationsContent } from "./helpers/fake_ai.ts";
import {
  avoidedTitles,
  markWatched,
  MY_LIST,
  numberedMovies,
  POOL,
  recommendWorld,
  seedMovies,
  setMyList,
  WATCHED,
} from "./helpers/recommend_world.ts";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";

const FIRST_SET = [15, 16, 17, 18, 19, 20, 11, 12];
const DAY = 86_400_000;

function assertQuotaHeaders(res: Response, remaining: number) {
  assert.equal(res.headers.get("x-ratelimit-limit"), "20");
  assert.equal(res.headers.get("x-ratelimit-remaining"), String(remaining));
  assert.match(res.headers.get("x-ratelimit-reset") ?? "", /^\d+$/);
}

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

Deno.test("GET /api/recommend never returns a watched movie, at most 2 My List movies last, no duplicates", async () => {
  await using w = await recommendWorld();
  const titles = [1, 11, 21, 12, 2, 21, 13, 22, 14, 23, 3, 24, 22, 25].map((id) => POOL[id - 1]);
  w.ai.script({ content: recommendationsContent(titles) });
  const body = await (await w.get("/api/recommend")).json();
  assert.deepEqual(body.recommendations, [21, 22, 23, 24, 25, 11, 12]);
  const ids: number[] = body.recommendations;
  assert.ok(ids.length >= 5 && ids.length <= 20);
  assert.equal(new Set(ids).size, ids.length);
  assert.ok(!ids.some((id) => WATCHED.includes(id)));
  assert.ok(ids.filter((id) => MY_LIST.includes(id)).length <= 2);
});

Deno.test("GET /api/recommend returns at most 20 even when the AI names 40 valid movies", async () => {
  await using w = await recommendWorld();
  await seedMovies(w.t.store, numberedMovies(61, 100));
  w.ai.script({ content: recommendationsContent(numberedMovies(61, 100)) });
  const body = await (await w.get("/api/recommend")).json();
  assert.deepEqual(body.recommendations, numberedMovies(61, 80).map((m) => m.id));
});

Deno.test("GET /api/recommend with a flag that is not true/1/false/0 answers 400", async () => {
  await using w = await recommendWorld();
  const res = await w.get("/api/recommend?refresh=maybe");
  assert.equal(res.status, 400);
  assert.equal((await res.json()).code, "invalid_query");
  assertQuotaHeaders(res, 20);
});

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
    "stale",
    "staleRecommendations",
  ]);
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

Deno.test("the prompt has no email or user id and stays bounded for a history of 5,000 movies", async () => {
  await using w = await recommendWorld();
  const history = numberedMovies(1001, 6000).map((m) => ({
    ...m,
    title: `${m.title} ${"and a rather long subtitle ".repeat(3)}`.trim(),
    genres: ["Drama", "Crime", "Thriller", "Mystery"],
  }));
  await seedMovies(w.t.store, history);
  await markWatched(w.t.store, w.user.id, history.map((m) => m.id));
  await setMyList(w.t.store, w.user.id, numberedMovies(31, 60).map((m) => m.id));
  const res = await w.get("/api/recommend");
  assert.equal(res.status, 200);
  const sent = JSON.stringify(w.ai.requests[0].body.messages);
  assert.ok(!sent.includes(w.user.email), "email in the prompt");
  assert.ok(!sent.includes(w.user.id), "user id in the prompt");
  assert.ok(!sent.includes(w.user.email.split("@")[0]), "email name in the prompt");
  assert.ok(sent.length < 30_000, `prompt is ${sent.length} characters`);
  const user = w.ai.requests[0].body.messages[1].content as string;
  assert.match(user, /Films watched: 5010\./);
  // The most recent first, at most 60 of them.
  const watchedLines = user.split("Saved to watch later")[0].split("\n").filter((l) =>
    l.startsWith("- ")
  );
  assert.equal(watchedLines.length, 60);
  assert.ok(watchedLines[0].startsWith("- Film 6000 "));
});
