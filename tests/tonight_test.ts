/**
 * POST /api/tonight (docs/recommend.md, "Tonight"): the words read by the AI (one unit) and
 * cleaned, or read plainly without a provider; filters alone spend nothing; the hard filters,
 * moods and exclusions; bad input 400s at every edge.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { type FakeAi, providersEnv, startFakeAi } from "./helpers/fake_ai.ts";
import { markWatched, type SeedMovie, seedMovies, setMyList } from "./helpers/recommend_world.ts";
import { type Engine, ENGINES } from "./helpers/store.ts";
import { issueAccessToken } from "./helpers/tokens.ts";
import { createUser } from "./helpers/users.ts";

const GENRES: string[][] = [
  ["Comedy"],
  ["Thriller", "Crime"],
  ["Drama", "Romance"],
  ["Science Fiction", "Mystery"],
  ["Comedy", "Family"],
  ["Horror"],
];
/** Films 1..60: genres cycle, runtimes 80-139, years 1960-2019, one in four French. */
const MOVIES: SeedMovie[] = Array.from({ length: 60 }, (_, i) => ({
  id: i + 1,
  title: `Film ${i + 1}`,
  year: 1960 + i,
  genres: GENRES[i % GENRES.length],
  popularity: 100 - i,
}));
const runtimeOf = (id: number) => 80 + id - 1;

async function world(options: { engine?: Engine; ai?: boolean } = {}) {
  const ai: FakeAi | null = options.ai === false ? null : startFakeAi();
  const t = await testApp({
    engine: options.engine,
    env: ai ? providersEnv([{ name: "fake", baseUrl: ai.baseUrl }]) : {},
  });
  await seedMovies(t.store, MOVIES);
  await t.store.query(
    `update public.movies set runtime = 80 + catalog_id - 1,
            original_language = case when catalog_id % 4 = 1 then 'fr' else 'en' end`,
  );
  const user = await createUser(t.deps);
  // Films 1 and 2 watched (a comedy and a thriller), 7 dismissed.
  await markWatched(t.store, user.id, [1, 2]);
  await t.store.query(
    `insert into public.user_dismissed_movies (user_id, catalog_id) values ($1, 7)`,
    [user.id],
  );
  const headers = async () => {
    const { token } = await issueAccessToken(t.deps, { id: user.id, email: user.email });
    return { authorization: `Bearer ${token}`, "content-type": "application/json" };
  };
  const post = async (body: unknown) =>
    await t.request("/api/tonight", {
      method: "POST",
      headers: await headers(),
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const remaining = async () =>
    (await (await t.request("/api/recommend/quota", { headers: await headers() })).json())
      .remaining;
  return {
    t,
    ai,
    user,
    post,
    remaining,
    async [Symbol.asyncDispose]() {
      await ai?.close();
      await t[Symbol.asyncDispose]();
    },
  };
}

for (const engine of ENGINES) {
  Deno.test(`POST /api/tonight (${engine}) with filters only asks no AI, spends nothing and keeps every hard filter`, async () => {
    await using w = await world({ engine });
    const res = await w.post({
      filters: { genres: ["comedy", "Westerns?"], runtimeMax: 120, yearFrom: 1965, yearTo: 2000 },
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.source, "local");
    assert.deepEqual(body.interpretation, {
      genres: ["Comedy"],
      excludeGenres: [],
      moods: [],
      runtimeMax: 120,
      yearFrom: 1965,
      yearTo: 2000,
      languages: [],
      onlyMine: false,
      fromMyList: false,
      similarTo: [],
    });
    assert.ok(body.movies.length > 0);
    for (const m of body.movies) {
      assert.ok(m.genres.includes("Comedy"), `${m.title} ${m.genres}`);
      assert.ok(m.runtime <= 120 && m.year >= 1965 && m.year <= 2000, m.title);
      assert.ok(Array.isArray(m.reasons) && m.reasons.length > 0);
      assert.equal(m.runtime, runtimeOf(m.catalogId));
    }
    assert.equal(w.ai!.requests.length, 0);
    assert.equal(await w.remaining(), 20);
  });

  Deno.test(`POST /api/tonight (${engine}) with words asks the AI once, spends one unit and cleans its answer`, async () => {
    await using w = await world({ engine });
    w.ai!.script({
      content: JSON.stringify({
        genres: ["comedy", "Cyberpunk"],
        excludeGenres: ["HORROR", "Sad films"],
        moods: ["light", "sleepy"],
        runtimeMax: 5000,
        yearFrom: 1700,
        yearTo: 2019,
        languages: ["fr", "xx", "FRE"],
        onlyMine: "yes",
        fromMyList: false,
        similarTo: [{ title: "film 5", year: 1964 }, { title: "Not Stored", year: 1999 }],
      }),
    });
    const res = await w.post({ text: "Something funny and French, like Film 5, not horror" });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.source, "ai");
    assert.deepEqual(body.interpretation, {
      genres: ["Comedy"],
      excludeGenres: ["Horror"],
      moods: ["light"],
      runtimeMax: null,
      yearFrom: null,
      yearTo: 2019,
      languages: ["fr"],
      onlyMine: false,
      fromMyList: false,
      similarTo: [{ catalogId: 5, title: "Film 5" }],
    });
    // French comedies: 13, 17, 25, 29, 37, 41, 49, 53 (1 is watched, 5 the example).
    assert.deepEqual(
      body.movies.map((m: { catalogId: number }) => m.catalogId).sort((a: number, b: number) =>
        a - b
      ),
      [13, 17, 25, 29, 37, 41, 49, 53],
    );
    assert.equal(w.ai!.requests.length, 1);
    const sent = w.ai!.requests[0].body;
    assert.equal(sent.response_format.type, "json_schema");
    assert.equal(sent.response_format.json_schema.name, "tonight_interpretation");
    assert.equal(sent.messages[1].content, "Something funny and French, like Film 5, not horror");
    assert.ok(!JSON.stringify(sent).includes(w.user.email));
    assert.equal(await w.remaining(), 19);
  });

  Deno.test(`POST /api/tonight (${engine}) never shows a watched or dismissed film, and at most 20`, async () => {
    await using w = await world({ engine, ai: false });
    const body = await (await w.post({})).json();
    assert.equal(body.movies.length, 20);
    const ids = body.movies.map((m: { catalogId: number }) => m.catalogId);
    for (const gone of [1, 2, 7]) assert.ok(!ids.includes(gone), `film ${gone} shown`);
  });
}

Deno.test("the AI's interpretation wrapped as {interpretation:{...}} is read the same", async () => {
  await using w = await world();
  w.ai!.script({
    content: "```json\n" + JSON.stringify({
      interpretation: {
        genres: ["Thriller"],
        excludeGenres: [],
        moods: [],
        runtimeMax: 1440,
        yearFrom: 1800,
        yearTo: 2200,
        languages: [],
        onlyMine: false,
        fromMyList: false,
        similarTo: [],
      },
    }) + "\n```",
  });
  const body = await (await w.post({ text: "a thriller" })).json();
  assert.equal(body.source, "ai");
  assert.deepEqual(
    [body.interpretation.genres, body.interpretation.runtimeMax, body.interpretation.yearFrom],
    [["Thriller"], 1440, 1800],
  );
  assert.ok(body.movies.every((m: { genres: string[] }) => m.genres.includes("Thriller")));
});

Deno.test("runtimeMax 0 and years outside 1800-2200 from the AI are left out, not refused", async () => {
  await using w = await world();
  w.ai!.script({
    content: JSON.stringify({
      genres: [],
      excludeGenres: [],
      moods: [],
      runtimeMax: 0,
      yearFrom: 2201,
      yearTo: "1990",
      languages: [],
      onlyMine: false,
      fromMyList: false,
      similarTo: [],
    }),
  });
  const body = await (await w.post({ text: "anything" })).json();
  assert.equal(body.interpretation.runtimeMax, null);
  assert.equal(body.interpretation.yearFrom, null);
  assert.equal(body.interpretation.yearTo, 1990);
});

Deno.test("words without a provider are read plainly, spend nothing and say source local", async () => {
  await using w = await world({ ai: false });
  const res = await w.post({ text: "Something light under 2 hours from the 70s, no horror" });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.source, "local");
  assert.deepEqual(body.interpretation.moods, ["light"]);
  assert.deepEqual(body.interpretation.excludeGenres, ["Horror"]);
  assert.equal(body.interpretation.runtimeMax, 120);
  assert.deepEqual([body.interpretation.yearFrom, body.interpretation.yearTo], [1970, 1979]);
  for (const m of body.movies) {
    assert.ok(m.year >= 1970 && m.year <= 1979 && m.runtime <= 120, m.title);
    assert.ok(!m.genres.includes("Horror"));
  }
  assert.equal(await w.remaining(), 20);
});

Deno.test("when the AI cannot be reached the words are read plainly and the unit is given back", async () => {
  await using w = await world();
  w.ai!.fallback = () => ({ status: 503, body: { error: { message: "overloaded" } } });
  const body = await (await w.post({ text: "a French comedy" })).json();
  assert.equal(body.source, "local");
  assert.deepEqual(body.interpretation.genres, ["Comedy"]);
  assert.deepEqual(body.interpretation.languages, ["fr"]);
  assert.equal(await w.remaining(), 20);
});

Deno.test("words with the day's quota spent answer 429; filters alone still answer", async () => {
  await using w = await world();
  for (let i = 0; i < 20; i++) {
    w.ai!.script({ content: JSON.stringify({ genres: ["Comedy"] }) });
    const ok = await w.post({ text: `a comedy ${i}` });
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
  }
  const refused = await w.post({ text: "one more comedy" });
  assert.equal(refused.status, 429);
  assert.equal((await refused.json()).code, "quota_exceeded");
  const filters = await w.post({ filters: { genres: ["Comedy"] } });
  assert.equal(filters.status, 200);
  await filters.body?.cancel();
  assert.equal(w.ai!.requests.length, 20);
});

Deno.test("a mood re-ranks inside the filters and says why: light puts comedies first", async () => {
  await using w = await world({ ai: false });
  const body = await (await w.post({ filters: { moods: ["light"] } })).json();
  const top = body.movies.slice(0, 5);
  for (const m of top) {
    assert.ok(m.genres.includes("Comedy"), `${m.title} ${m.genres}`);
    assert.match(m.reasons[0], /^Something light: Comedy/);
  }
  assert.ok(!top.some((m: { genres: string[] }) => m.genres.includes("Thriller")));
  const horror = body.movies.filter((m: { genres: string[] }) => m.genres.includes("Horror"));
  for (const m of horror) {
    assert.ok(!m.reasons.some((r: string) => r.startsWith("Something light")));
  }
});

Deno.test("filters win over the words; similarTo by id is checked against the store", async () => {
  await using w = await world({ ai: false });
  const body = await (await w.post({
    text: "a comedy",
    filters: { genres: ["Drama"], similarTo: [{ catalogId: 9, title: "ignored" }, 999] },
  })).json();
  assert.deepEqual(body.interpretation.genres, ["Drama"]);
  assert.deepEqual(body.interpretation.similarTo, [{ catalogId: 9, title: "Film 9" }]);
  assert.ok(body.movies.every((m: { genres: string[] }) => m.genres.includes("Drama")));
});

Deno.test("POST /api/tonight refuses bad input with 400 at every edge", async () => {
  await using w = await world({ ai: false });
  const status = async (body: unknown) => {
    const res = await w.post(body);
    const json = await res.json();
    return res.status === 400 ? json.code : res.status;
  };
  assert.equal(await status({ text: "x".repeat(300) }), 200);
  assert.equal(await status({ text: "x".repeat(301) }), "invalid_query");
  assert.equal(await status({ filters: { runtimeMax: 1 } }), 200);
  assert.equal(await status({ filters: { runtimeMax: 1440 } }), 200);
  assert.equal(await status({ filters: { runtimeMax: 0 } }), "invalid_query");
  assert.equal(await status({ filters: { runtimeMax: 1441 } }), "invalid_query");
  assert.equal(await status({ filters: { runtimeMax: 90.5 } }), "invalid_query");
  assert.equal(await status({ filters: { yearFrom: 1800, yearTo: 2200 } }), 200);
  assert.equal(await status({ filters: { yearFrom: 1799 } }), "invalid_query");
  assert.equal(await status({ filters: { yearTo: 2201 } }), "invalid_query");
  assert.equal(await status({ filters: { yearFrom: null, runtimeMax: null } }), 200);
  assert.equal(await status({ filters: { genres: "Comedy" } }), "invalid_query");
  assert.equal(await status({ filters: { moods: ["sleepy"] } }), "invalid_query");
  assert.equal(await status({ filters: { languages: ["FRE"] } }), "invalid_query");
  assert.equal(await status({ filters: { onlyMine: "yes" } }), "invalid_query");
  assert.equal(await status({ filters: { colour: true } }), "invalid_query");
  assert.equal(await status({ text: 5 }), "invalid_query");
  assert.equal(await status({ prompt: "x" }), "invalid_query");
  assert.equal(await status("{not json"), "invalid_body");
  const unsigned = await w.t.request("/api/tonight", { method: "POST", body: "{}" });
  assert.equal(unsigned.status, 401);
  await unsigned.body?.cancel();
});

Deno.test("fromMyList ranks My List alone; onlyMine without chosen services is 400 no_services", async () => {
  await using w = await world({ ai: false });
  await setMyList(w.t.store, w.user.id, [20, 21, 22, 2]);
  const body = await (await w.post({ filters: { fromMyList: true } })).json();
  assert.deepEqual(
    body.movies.map((m: { catalogId: number }) => m.catalogId).sort((a: number, b: number) =>
      a - b
    ),
    [20, 21, 22],
  );
  // Without fromMyList, My List films are left out of the picks.
  const all = await (await w.post({})).json();
  assert.ok(!all.movies.some((m: { catalogId: number }) => [20, 21, 22].includes(m.catalogId)));
  const mine = await w.post({ filters: { onlyMine: true } });
  assert.equal(mine.status, 400);
  assert.equal((await mine.json()).code, "no_services");
});
