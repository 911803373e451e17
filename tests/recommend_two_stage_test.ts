/**
 * The two stages of GET /api/recommend (docs/recommend.md, "Two stages"): the local
 * recommender's top 60 candidates go to the AI, which chooses and orders; 👍/👎 reach the
 * prompt; the prompt stays under its bound; every answer says its source; and AI_FALLBACK=local
 * answers the local picks where the answer would be a 503.
 */
import assert from "node:assert/strict";
import { loadConfig } from "@/lib/core/config.ts";
import { generationPicks } from "@/lib/recommend/generation.ts";
import { OWN_CHOICES } from "@/lib/recommend/prompt.ts";
import { PROMPT_MAX_CHARS } from "@/lib/recommend/prompt_extras.ts";
import { localPicks } from "@/lib/recommend/local/mod.ts";
import { testApp } from "./helpers/app.ts";
import {
  type FakeAi,
  providersEnv,
  recommendationsContent,
  startFakeAi,
} from "./helpers/fake_ai.ts";
import {
  assertQuotaHeaders,
  markWatched,
  modelLike,
  numberedMovies,
  POOL,
  type SeedMovie,
  seedMovies,
  setMyList,
} from "./helpers/recommend_world.ts";
import { type Engine, ENGINES } from "./helpers/store.ts";
import { issueAccessToken } from "./helpers/tokens.ts";
import { createUser } from "./helpers/users.ts";

/** Films 1..150: 1-10 watched, 11-14 on My List, the rest unseen. */
const WORLD = numberedMovies(1, 150);

async function world(
  options: { engine?: Engine; env?: Record<string, string>; ai?: boolean; movies?: SeedMovie[] } =
    {},
) {
  const ai: FakeAi | null = options.ai === false
    ? null
    : startFakeAi({ fallback: modelLike(POOL) });
  const t = await testApp({
    engine: options.engine,
    env: { ...(ai ? providersEnv([{ name: "fake", baseUrl: ai.baseUrl }]) : {}), ...options.env },
  });
  await seedMovies(t.store, options.movies ?? WORLD);
  const user = await createUser(t.deps);
  await markWatched(t.store, user.id, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  await setMyList(t.store, user.id, [11, 12, 13, 14]);
  const get = async (path: string) => {
    const { token } = await issueAccessToken(t.deps, { id: user.id, email: user.email });
    return await t.request(path, { headers: { authorization: `Bearer ${token}` } });
  };
  return {
    t,
    ai,
    user,
    get,
    async [Symbol.asyncDispose]() {
      await ai?.close();
      await t[Symbol.asyncDispose]();
    },
  };
}

const candidateLines = (content: string) => content.split("\n").filter((l) => /^\d+\. /.test(l));
const lastMessage = (ai: FakeAi, i = 0) => {
  const messages = ai.requests[i].body.messages;
  return messages[messages.length - 1].content as string;
};

for (const engine of ENGINES) {
  Deno.test(`GET /api/recommend (${engine}) sends the user's top 60 local candidates, best first, and answers source "ai"`, async () => {
    await using w = await world({ engine });
    const expected = await localPicks(w.t.deps, w.user.id, { limit: 60 });
    assert.equal(expected.length, 60);
    const res = await w.get("/api/recommend");
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.source, "ai");
    assert.equal(body.cached, false);
    const messages = w.ai!.requests[0].body.messages;
    assert.equal(messages.length, 3);
    const lines = candidateLines(messages[2].content);
    assert.equal(lines.length, 60);
    assert.deepEqual(
      lines,
      expected.map((p, i) => `${i + 1}. Film ${p.catalogId} (${1990 + (p.catalogId % 30)})`),
    );
    assert.match(
      messages[2].content,
      new RegExp(
        `Choose the 20 films .* At most ${OWN_CHOICES} of the 20 may be films of your own`,
        "s",
      ),
    );
    // Never a watched film, a My List film among the candidates.
    for (const p of expected) assert.ok(p.catalogId > 14, `candidate ${p.catalogId}`);
    // The cached answer keeps its shape, plus the source.
    const cached = await (await w.get("/api/recommend")).json();
    assert.deepEqual(cached, { ...body, cached: true });
    assert.equal(w.ai!.requests.length, 1);
  });

  Deno.test(`GET /api/recommend (${engine}) keeps the AI's order of the candidates and a film of its own`, async () => {
    await using w = await world({ engine });
    const candidates = await localPicks(w.t.deps, w.user.id, { limit: 60 });
    const chosen = candidates.slice(0, 7).map((p) => p.catalogId).reverse();
    const films = chosen.map((id) => WORLD[id - 1]);
    // One of its own: a stored film outside the candidates (the 61st), and one off by a year.
    const own = candidates.length < 60
      ? null
      : WORLD.find((m) => m.id > 14 && !candidates.some((c) => c.catalogId === m.id))!;
    w.ai!.script({
      content: recommendationsContent([
        ...films.map((m, i) => (i === 0 ? { title: m.title, year: m.year + 1 } : m)),
        ...(own ? [own] : []),
      ]),
    });
    const body = await (await w.get("/api/recommend")).json();
    assert.deepEqual(body.recommendations, [...chosen, ...(own ? [own.id] : [])]);
    assert.equal(body.source, "ai");
  });

  Deno.test(`the prompt (${engine}) lists the user's 👍 and 👎 films as liked and disliked`, async () => {
    await using w = await world({ engine });
    await w.t.store.query(
      `insert into public.recommend_feedback (user_id, catalog_id, value) values
         ($1, 20, 1), ($1, 21, -1), ($1, 22, 1)`,
      [w.user.id],
    );
    const res = await w.get("/api/recommend");
    assert.equal(res.status, 200);
    await res.body?.cancel();
    const profile = w.ai!.requests[0].body.messages[1].content as string;
    const liked =
      profile.split("Earlier suggestions the viewer liked (thumbs up; more like these):\n")[1];
    assert.ok(liked, profile);
    const likedLines = liked.split("\n").filter((l) => l.startsWith("- "));
    assert.deepEqual(likedLines.slice(0, 2).sort(), ["- Film 20 (2010)", "- Film 22 (2012)"]);
    assert.match(
      profile,
      /Earlier suggestions the viewer disliked \(thumbs down; fewer like these\):\n- Film 21 \(2011\)/,
    );
    // A 👎 film is no candidate.
    assert.ok(!candidateLines(lastMessage(w.ai!)).some((l) => l.includes("Film 21 ")));
  });
}

Deno.test("the prompt stays under 30,000 characters with 60 candidates of very long titles, 5,000 watched, dismissals and feedback", async () => {
  const long = (id: number) =>
    `Film ${id} ${"with a very, very long title indeed ".repeat(9)}`.trim();
  const movies = numberedMovies(1, 5200).map((m) => ({
    ...m,
    title: long(m.id),
    genres: ["Drama", "Crime", "Thriller", "Mystery"],
  }));
  await using w = await world({ movies });
  await markWatched(w.t.store, w.user.id, movies.slice(100, 5100).map((m) => m.id));
  await setMyList(w.t.store, w.user.id, movies.slice(5100, 5140).map((m) => m.id));
  await w.t.store.query(
    `update public.user_watched_movies set rating = (catalog_id % 10) + 1 where user_id = $1`,
    [w.user.id],
  );
  await w.t.store.query(
    `insert into public.user_dismissed_movies (user_id, catalog_id)
     select $1, g from generate_series(5141, 5180) g`,
    [w.user.id],
  );
  await w.t.store.query(
    `insert into public.recommend_feedback (user_id, catalog_id, value)
     select $1, g, case when g % 2 = 0 then 1 else -1 end from generate_series(101, 140) g`,
    [w.user.id],
  );
  w.ai!.fallback = () => ({ status: 503, body: { error: { message: "busy" } } });
  const res = await w.get("/api/recommend");
  assert.equal(res.status, 503);
  await res.body?.cancel();
  const messages = w.ai!.requests[0].body.messages;
  const size = JSON.stringify(messages).length;
  assert.ok(size <= PROMPT_MAX_CHARS && PROMPT_MAX_CHARS < 30_000, `prompt is ${size} characters`);
  // The cuts fall on the history first: every candidate is still there.
  assert.equal(candidateLines(messages[2].content).length, 60);
  assert.match(messages[1].content, /Earlier suggestions the viewer liked/);
  assert.match(messages[1].content, /Not interested/);
});

Deno.test("AI_FALLBACK=local with no provider answers 200 with the local picks, source local, spending nothing and storing nothing", async () => {
  await using w = await world({ ai: false, env: { AI_FALLBACK: "local" } });
  const expected = (await localPicks(w.t.deps, w.user.id, { limit: 20 })).map((p) => p.catalogId);
  const res = await w.get("/api/recommend");
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), {
    recommendations: expected,
    cached: false,
    stale: false,
    regenerationError: null,
    staleRecommendations: null,
    source: "local",
  });
  assertQuotaHeaders(res, 20);
  const current = await w.get("/api/recommend/current");
  assert.equal(current.status, 404);
  await current.body?.cancel();
});

Deno.test("AI_FALLBACK=local when every provider is unavailable answers the local picks and gives the unit back", async () => {
  await using w = await world({ env: { AI_FALLBACK: "local" } });
  w.ai!.fallback = () => ({ status: 503, body: { error: { message: "overloaded" } } });
  const res = await w.get("/api/recommend");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.source, "local");
  assert.equal(body.recommendations.length, 20);
  assertQuotaHeaders(res, 20);
  // A 502 is not a 503: it stands, fallback or not.
  w.ai!.fallback = () => ({ content: "I cannot help with that." });
  const bad = await w.get("/api/recommend");
  assert.equal(bad.status, 502);
  await bad.body?.cancel();
});

Deno.test("AI_FALLBACK=local with a stored set: a 503 regeneration still answers the stale set", async () => {
  await using w = await world({ env: { AI_FALLBACK: "local" } });
  const first = await (await w.get("/api/recommend")).json();
  w.ai!.fallback = () => ({ status: 503, body: { error: { message: "overloaded" } } });
  const body = await (await w.get("/api/recommend?refresh=1")).json();
  assert.equal(body.stale, true);
  assert.equal(body.source, "ai");
  assert.deepEqual(body.staleRecommendations, first.recommendations);
});

Deno.test("without AI_FALLBACK the interface's 503 stands", async () => {
  await using w = await world({ ai: false });
  const res = await w.get("/api/recommend");
  assert.equal(res.status, 503);
  assert.equal((await res.json()).code, "ai_unavailable");
  assertQuotaHeaders(res, 20);
});

Deno.test("AI_FALLBACK takes off or local, any case; anything else refuses to start", () => {
  assert.equal(loadConfig({}).aiFallback, "off");
  assert.equal(loadConfig({ AI_FALLBACK: "Local" }).aiFallback, "local");
  assert.equal(loadConfig({ AI_FALLBACK: "off" }).aiFallback, "off");
  assert.throws(() => loadConfig({ AI_FALLBACK: "popular" }), /AI_FALLBACK/);
});

Deno.test("generationPicks: the two stages send the candidates, the AI alone does not; neither stores nor spends", async () => {
  await using w = await world();
  const search = () => Promise.resolve({ results: [] });
  const two = await generationPicks(w.t.deps, w.user.id, { stages: "two", search });
  const alone = await generationPicks(w.t.deps, w.user.id, { stages: "ai", search });
  assert.equal(w.ai!.requests[0].body.messages.length, 3);
  assert.equal(w.ai!.requests[1].body.messages.length, 2);
  assert.ok(!JSON.stringify(w.ai!.requests[1].body.messages).includes("Candidates"));
  assert.ok(two.length >= 5 && alone.length >= 5);
  const [row] = await w.t.store.query<{ n: number }>(
    "select count(*)::int as n from public.recommendations",
  );
  assert.equal(row.n, 0);
});

Deno.test("when the local candidates cannot be read, the AI answers alone and the failure is logged", async () => {
  await using w = await world();
  // The store as it is, but the local model's index read fails.
  const store = new Proxy(w.t.store, {
    get(target, prop) {
      if (prop === "query") {
        return (text: string, params?: unknown[]) =>
          text.includes("features_rev")
            ? Promise.reject(new Error("index read failed"))
            : target.query(text, params);
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const search = () => Promise.resolve({ results: [] });
  const picks = await generationPicks({ ...w.t.deps, store }, w.user.id, { stages: "two", search });
  assert.ok(picks.length >= 5);
  assert.equal(w.ai!.requests[0].body.messages.length, 2);
  assert.ok(w.t.logs.some((l) => l.msg === "local candidates failed"));
});
