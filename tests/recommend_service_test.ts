import assert from "node:assert/strict";
import { createRecommendService } from "../lib/recommend/mod.ts";
import type { CandidateSearch } from "../lib/recommend/resolve_titles.ts";
import { testApp } from "./helpers/app.ts";
import { providersEnv, recommendationsContent, startFakeAi } from "./helpers/fake_ai.ts";
import { markWatched, POOL, seedMovies, WATCHED } from "./helpers/recommend_world.ts";
import { createUser } from "./helpers/users.ts";

const noSearch: CandidateSearch = () => Promise.resolve({ results: [] });
const PICKS = POOL.slice(20, 30);

Deno.test("service: 429, then 500, then a timeout (injected 200 ms), then the fourth provider answers", async () => {
  await using a = startFakeAi();
  await using b = startFakeAi();
  await using c = startFakeAi();
  await using d = startFakeAi();
  a.script({ status: 429, body: { error: { message: "Rate limit reached for requests" } } });
  b.script({ status: 500, body: { error: { message: "internal" } } });
  c.script({ delayMs: 10_000, content: recommendationsContent(PICKS) });
  d.script({ content: recommendationsContent(PICKS) });
  await using t = await testApp({
    env: providersEnv([
      { name: "a", baseUrl: a.baseUrl },
      { name: "b", baseUrl: b.baseUrl },
      { name: "c", baseUrl: c.baseUrl },
      { name: "d", baseUrl: d.baseUrl },
    ]),
  });
  await seedMovies(t.store, POOL);
  const user = await createUser(t.deps);
  await markWatched(t.store, user.id, WATCHED);
  const service = createRecommendService(t.deps, { search: noSearch, timeoutMs: 200 });
  const started = performance.now();
  const result = await service.recommend(user.id);
  assert.ok(performance.now() - started < 5_000);
  assert.deepEqual(result.recommendations, PICKS.map((m) => m.id));
  assert.equal(result.cached, false);
  assert.deepEqual([a, b, c, d].map((f) => f.requests.length), [1, 1, 1, 1]);
  assert.equal((await service.quota(user.id)).used, 1);
});

Deno.test("service: json_schema rejected, then the same model's plain JSON in a code fence is accepted", async () => {
  await using ai = startFakeAi();
  ai.script({ rejectResponseFormat: true }, {
    content: "```json\n" + recommendationsContent(PICKS) + "\n```",
  });
  await using t = await testApp({ env: providersEnv([{ name: "groq", baseUrl: ai.baseUrl }]) });
  await seedMovies(t.store, POOL);
  const user = await createUser(t.deps);
  await markWatched(t.store, user.id, WATCHED);
  const service = createRecommendService(t.deps, { search: noSearch });
  const result = await service.recommend(user.id);
  assert.deepEqual(result.recommendations, PICKS.map((m) => m.id));
  assert.equal(ai.requests.length, 2);
  assert.equal(ai.requests[0].body.response_format.type, "json_schema");
  assert.equal(ai.requests[1].body.response_format, undefined);
});

Deno.test("service: titles the movies store does not know resolve through the catalog search", async () => {
  await using ai = startFakeAi();
  const gems = Array.from(
    { length: 6 },
    (_, i) => ({ title: `Hidden Gem ${i + 1}`, year: 2010 + i }),
  );
  ai.script({ content: recommendationsContent(gems) });
  await using t = await testApp({ env: providersEnv([{ name: "fake", baseUrl: ai.baseUrl }]) });
  await seedMovies(t.store, POOL);
  const user = await createUser(t.deps);
  await markWatched(t.store, user.id, WATCHED);
  const calls: { title: string; year?: number; wait: boolean }[] = [];
  const search: CandidateSearch = (title, options) => {
    calls.push({ title, ...options });
    const n = Number(title.split(" ").at(-1));
    return Promise.resolve({
      results: [
        {
          id: 7000 + n,
          title: `${title} Returns`,
          original_title: "",
          release_date: `${2009 + n}-05-01`,
        },
        { id: 5000 + n, title, original_title: title, release_date: `${2009 + n}-05-01` },
      ],
    });
  };
  const service = createRecommendService(t.deps, { search });
  const result = await service.recommend(user.id);
  assert.deepEqual(result.recommendations, [5001, 5002, 5003, 5004, 5005, 5006]);
  assert.deepEqual(calls[0], { title: "Hidden Gem 1", year: 2010, wait: true });
  assert.equal(calls.length, 6);
});

Deno.test("service: a cached answer is one statement (the stored set and the history's hash)", async () => {
  await using ai = startFakeAi();
  ai.script({ content: recommendationsContent(PICKS) });
  await using t = await testApp({ env: providersEnv([{ name: "a", baseUrl: ai.baseUrl }]) });
  await seedMovies(t.store, POOL);
  const user = await createUser(t.deps);
  await markWatched(t.store, user.id, WATCHED);
  const service = createRecommendService(t.deps, { search: noSearch });
  assert.equal((await service.recommend(user.id)).cached, false);
  const before = t.store.stats.queries;
  assert.equal((await service.recommend(user.id)).cached, true);
  // No taste profile (recent titles, genre histogram, My List) for an answer that needs none,
  // and no watched id read back: PostgreSQL hashes the history in the same statement.
  assert.equal(t.store.stats.queries - before, 1);
});
