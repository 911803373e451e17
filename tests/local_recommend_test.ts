/**
 * Local picks (docs/recommend.md, "Local picks") on both stores, in the designed world of
 * tests/helpers/local_world.ts: a user who loves Heat and Ocean's Eleven and dislikes a wedding
 * comedy gets the rest of the Ocean's collection and the Michael Mann films first, the wedding
 * films last, and reasons that name only what the score used.
 */
import assert from "node:assert/strict";
import { ENGINES } from "./helpers/store.ts";
import { type TestApp, testApp } from "./helpers/app.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { issueAccessToken } from "./helpers/tokens.ts";
import { startSession } from "@/lib/identity/auth/sessions.ts";
import { lightRow } from "@/lib/catalog/normalize.ts";
import { upsertLight } from "@/lib/catalog/movies_store.ts";
import { tmdbListRow } from "@/lib/catalog/tmdb_schemas.ts";
import { POPULAR_FIXTURE_ROWS } from "./helpers/fake_tmdb.ts";
import { currentIndex } from "@/lib/recommend/local/feature_index.ts";
import { F, rate, seedFeatureMovies, worldMovies, worldStore } from "./helpers/local_world.ts";
import {
  genreName,
  type LocalPick,
  type LocalPickOptions,
  localPicks,
  type PickFilter,
  POPULAR_REASON,
  scoreMovies,
} from "@/lib/recommend/local/mod.ts";

interface Pick {
  catalogId: number;
  score: number;
  reasons: string[];
}

async function world(engine: (typeof ENGINES)[number], fillers = 10) {
  const store = await worldStore(engine);
  const app = await testApp({ engine, store });
  await seedFeatureMovies(app.store, worldMovies(fillers));
  const user = await createUser(app.deps);
  const closeApp = app[Symbol.asyncDispose].bind(app);
  const t = Object.assign(app, {
    async [Symbol.asyncDispose]() {
      await closeApp();
      await store[Symbol.asyncDispose]();
    },
  });
  return { t, user };
}

async function lover(t: TestApp, user: TestUser) {
  await rate(t.store, user.id, [[F.heat, 9], [F.oceans11, 8], [F.wedding1, 2]]);
}

async function picks(t: TestApp, user: TestUser, query = ""): Promise<Pick[]> {
  const res = await t.request(`/api/recommend/local${query}`, { headers: user.headers });
  assert.equal(res.status, 200, await res.clone().text());
  const body = await res.json();
  assert.equal(body.source, "local");
  return body.recommendations;
}

const ids = (list: { catalogId: number }[]) => list.map((p) => p.catalogId);

function assertDescending(list: Pick[]) {
  for (let i = 1; i < list.length; i++) {
    assert.ok(list[i - 1].score >= list[i].score, JSON.stringify(list));
  }
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /api/recommend/local puts the loved collection and director first, the disliked films last, with reasons naming the user's films and the shared features`, async () => {
    const { t, user } = await world(engine);
    await using _ = t;
    await lover(t, user);
    const res = await t.request("/api/recommend/local?limit=50", { headers: user.headers });
    // No quota is spent, and none is shown.
    assert.equal(res.headers.get("x-ratelimit-remaining"), null);
    const quota = await t.request("/api/recommend/quota", { headers: user.headers });
    assert.equal((await quota.json()).remaining, 20);
    const list: Pick[] = (await res.json()).recommendations;
    assertDescending(list);
    const order = ids(list);
    assert.deepEqual(new Set(order.slice(0, 2)), new Set([F.oceans12, F.oceans13]));
    assert.deepEqual(
      new Set(order.slice(2, 5)),
      new Set([F.thief, F.collateral, F.miamiVice]),
    );
    // The wedding films share the disliked one's director and keywords: pushed below everything.
    assert.deepEqual(new Set(order.slice(-2)), new Set([F.wedding2, F.wedding3]));
    for (const watched of [F.heat, F.oceans11, F.wedding1]) assert.ok(!order.includes(watched));
    const twelve = list.find((p) => p.catalogId === F.oceans12)!;
    assert.equal(twelve.reasons[0], "Because you rated Ocean's Eleven 8/10");
    assert.ok(twelve.reasons.includes("Part of Ocean's Collection"), twelve.reasons.join("|"));
    const thief = list.find((p) => p.catalogId === F.thief)!;
    assert.equal(thief.reasons[0], "Because you rated Heat 9/10");
    assert.ok(thief.reasons.includes("Directed by Michael Mann"), thief.reasons.join("|"));
    // Nothing the score did not use: no Soderbergh for a Mann film, no Mann for Ocean's.
    assert.ok(!thief.reasons.some((r) => /Ocean|Soderbergh/.test(r)));
    assert.ok(!twelve.reasons.some((r) => /Heat|Mann/.test(r)));
    // A filler shares nothing the user liked: it never claims a film or a feature.
    const filler = list.find((p) => p.catalogId === 1101)!;
    assert.deepEqual(filler.reasons, ["Popular and well rated here"]);
  });

  Deno.test(`[${engine}] local picks leave out watched films, My List, dismissed and 👎 films; 👍 never hides one; fromMyList ranks My List`, async () => {
    const { t, user } = await world(engine);
    await using _ = t;
    await lover(t, user);
    await t.store.query(
      `insert into public.user_my_list (user_id, catalog_ids) values ($1, $2::int[])`,
      [user.id, [F.wedding2, F.thief, F.collateral]],
    );
    const send = (path: string, method: string, body: unknown) =>
      t.request(path, {
        method,
        headers: { ...user.headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    assert.equal(
      (await send("/api/recommend/dismissed", "POST", { catalogId: F.oceans12 })).status,
      200,
    );
    assert.equal(
      (await send("/api/recommend/feedback", "POST", { catalogId: F.miamiVice, value: -1 })).status,
      200,
    );
    assert.equal(
      (await send("/api/recommend/feedback", "POST", { catalogId: F.korean, value: 1 })).status,
      200,
    );
    const order = ids(await picks(t, user, "?limit=50"));
    for (
      const gone of [
        F.heat,
        F.oceans11,
        F.wedding1,
        F.wedding2,
        F.thief,
        F.collateral,
        F.oceans12,
        F.miamiVice,
      ]
    ) {
      assert.ok(!order.includes(gone), String(gone));
    }
    // The 👍 film stays and pulls hardest (it is its own best match); Ocean's Thirteen is next.
    assert.deepEqual(order.slice(0, 2), [F.korean, F.oceans13]);
    // My List alone, best first: the Mann films before the wedding film.
    const mine = ids(await picks(t, user, "?fromMyList=true"));
    assert.deepEqual(new Set(mine.slice(0, 2)), new Set([F.thief, F.collateral]));
    assert.deepEqual(mine.slice(2), [F.wedding2]);
    assert.deepEqual(ids(await picks(t, user, "?fromMyList=1&limit=1")), mine.slice(0, 1));
  });

  Deno.test(`[${engine}] genre= keeps one genre (any case); an unknown genre and bad limits or flags answer 400 invalid_query; limits 1 and 50 hold at their edge`, async () => {
    const { t, user } = await world(engine, 60);
    await using _ = t;
    await lover(t, user);
    const comedies = await picks(t, user, "?genre=comedy");
    assert.deepEqual(
      new Set(ids(comedies)),
      new Set([F.oceans12, F.oceans13, F.wedding2, F.wedding3]),
    );
    assert.deepEqual(ids(await picks(t, user, "?genre=35&limit=2")), ids(comedies).slice(0, 2));
    assert.equal((await picks(t, user, "?limit=1")).length, 1);
    assert.equal((await picks(t, user, "?limit=50")).length, 50);
    assert.equal((await picks(t, user)).length, 20);
    for (
      const q of [
        "limit=0",
        "limit=51",
        "limit=abc",
        "limit=",
        "limit=1.5",
        "onlyMine=maybe",
        "fromMyList=2",
        "genre=Cartoons",
      ]
    ) {
      const res = await t.request(`/api/recommend/local?${q}`, { headers: user.headers });
      assert.equal(res.status, 400, q);
      assert.match(res.headers.get("content-type") ?? "", /^application\/problem\+json/);
      assert.equal((await res.json()).code, "invalid_query", q);
    }
    assert.equal((await t.request("/api/recommend/local")).status, 401);
  });

  Deno.test(`[${engine}] onlyMine keeps what streams on my services; without services it is 400 no_services; the saved switch applies when the query is silent`, async () => {
    const { t, user } = await world(engine);
    await using _ = t;
    await lover(t, user);
    const res = await t.request("/api/recommend/local?onlyMine=true", { headers: user.headers });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).code, "no_services");
    await t.store.query(
      `insert into public.user_services (user_id, region, provider_ids, only_mine)
       values ($1, 'US', '{8}', true)`,
      [user.id],
    );
    await t.store.query(
      `insert into public.movie_streaming_offers (catalog_id, region, provider_id, provider_name,
         kind, kind_ord, ord)
       values ($1, 'US', 8, 'Netflix', 'flatrate', 1, 0), ($2, 'US', 8, 'Netflix', 'flatrate', 1, 0),
              ($3, 'GB', 8, 'Netflix', 'flatrate', 1, 0), ($4, 'US', 9, 'Other', 'flatrate', 1, 0)`,
      [F.thief, F.wedding2, F.collateral, F.oceans12],
    );
    assert.deepEqual(ids(await picks(t, user, "?onlyMine=true")), [F.thief, F.wedding2]);
    // The saved switch is on: a silent query applies it, onlyMine=false lifts it.
    assert.deepEqual(ids(await picks(t, user)), [F.thief, F.wedding2]);
    assert.ok((await picks(t, user, "?onlyMine=false")).length > 2);
  });

  Deno.test(`[${engine}] GET /api/recommend/local checks the token's session in its first statement: an ended session is a 401, a cached answer included`, async () => {
    const { t, user } = await world(engine);
    await using _ = t;
    await lover(t, user);
    const { sessionId } = await startSession(t.store, user.id, { now: t.clock.now() });
    const { token } = await issueAccessToken(t.deps, user, { sessionId });
    const headers = { authorization: `Bearer ${token}` };
    for (let i = 0; i < 2; i++) {
      assert.equal((await t.request("/api/recommend/local", { headers })).status, 200);
    }
    await t.store.query(`delete from auth.sessions where id = $1`, [sessionId]);
    const res = await t.request("/api/recommend/local", { headers });
    assert.equal(res.status, 401);
    await res.body?.cancel();
  });

  Deno.test(`[${engine}] a user with no watched film gets the most popular stored films, each saying "popular"`, async () => {
    const { t, user } = await world(engine);
    await using _ = t;
    const list = await picks(t, user, "?limit=5");
    assert.deepEqual(ids(list), [1101, 1102, 1103, 1104, 1105]);
    for (const p of list) assert.ok(p.reasons.some((r) => /popular/i.test(r)), p.reasons.join("|"));
    assert.deepEqual(list[0].reasons, [POPULAR_REASON]);
    assertDescending(list);
  });

  Deno.test(`[${engine}] co-watching counts a pair only once 3 other users watched both, and never says who`, async () => {
    const { t, user } = await world(engine);
    await using _ = t;
    await rate(t.store, user.id, [[1101, 9]]);
    const before = (await localPicks(t.deps, user.id, { limit: 50 })).find((p) =>
      p.catalogId === 1107
    )!;
    const others: TestUser[] = [];
    for (let i = 0; i < 3; i++) others.push(await createUser(t.deps));
    for (const other of others.slice(0, 2)) {
      await rate(t.store, other.id, [[1101, null], [1107, null]]);
    }
    const two = (await localPicks(t.deps, user.id, { limit: 50 })).find((p) =>
      p.catalogId === 1107
    )!;
    assert.equal(two.score, before.score);
    assert.ok(!two.reasons.some((r) => /watched here/.test(r)), two.reasons.join("|"));
    await rate(t.store, others[2].id, [[1101, 8], [1107, 3]]);
    const list = await picks(t, user, "?limit=3");
    assert.equal(list[0].catalogId, 1107);
    assert.ok(list[0].score > two.score);
    assert.equal(list[0].reasons[0], "Often watched here by people who watched Popular 1");
    const text = JSON.stringify(list);
    for (const o of others) assert.ok(!text.includes(o.id) && !text.includes(o.email));
  });

  Deno.test(`[${engine}] localPicks' hard filters, exclusions and similarTo; scoreMovies scores a shortlist in its order with traits that name no film`, async () => {
    const { t, user } = await world(engine);
    await using _ = t;
    await lover(t, user);
    const pick = (filter: PickFilter | undefined, exclude?: number[]) => {
      const options: LocalPickOptions = { limit: 50, filter, exclude };
      return localPicks(t.deps, user.id, options).then((list: LocalPick[]) => ids(list));
    };
    assert.deepEqual(
      new Set(await pick({ runtimeMax: 125 })),
      new Set([
        F.thief,
        F.collateral,
        F.oceans12,
        F.oceans13,
        F.wedding2,
        F.wedding3,
        ...Array.from({ length: 10 }, (_, i) => 1101 + i),
      ]),
    );
    assert.deepEqual(await pick({ yearFrom: 2004, yearTo: 2006 }), [
      F.oceans12,
      F.collateral,
      F.miamiVice,
    ]);
    assert.deepEqual(await pick({ languages: ["ko"] }), [F.korean]);
    assert.deepEqual(
      new Set(await pick({ genres: ["Thriller"], excludeGenres: ["action"] })),
      new Set([F.thief, F.collateral, F.korean]),
    );
    assert.ok(!(await pick(undefined, [F.oceans12])).includes(F.oceans12));
    // Like Seoul Heist: the only other Korean heist thriller is not there, so the heist films lead.
    // Like Seoul Heist, for someone with no history: the heist thrillers, said so.
    const fresh = await createUser(t.deps);
    const like = await localPicks(t.deps, fresh.id, {
      limit: 3,
      filter: { similarTo: [F.korean] },
    });
    assert.ok(!ids(like).includes(F.korean));
    assert.equal(like[0].catalogId, F.thief);
    assert.equal(like[0].reasons[0], "Similar to Seoul Heist");

    const scored = await scoreMovies(t.deps, user.id, {
      catalogIds: [F.wedding2, F.thief, 999_999, F.heat],
    });
    assert.deepEqual(ids(scored), [F.wedding2, F.thief, 999_999, F.heat]);
    assert.ok(scored[1].score > scored[0].score);
    assert.equal(scored[2].score, 0);
    assert.ok(scored[1].traits.includes("Michael Mann films"), scored[1].traits.join("|"));
    for (const s of scored) assert.ok(!s.traits.some((x) => /Heat|Ocean's Eleven|Wedding/.test(x)));
  });

  Deno.test(`[${engine}] the index follows the store: a film stored after the first answer is picked at the next`, async () => {
    const { t, user } = await world(engine);
    await using _ = t;
    await lover(t, user);
    assert.equal((await picks(t, user, "?limit=1"))[0].catalogId !== 1050, true);
    await seedFeatureMovies(t.store, [{
      id: 1050,
      title: "The Insider",
      year: 1999,
      genres: ["Crime", "Thriller"],
      keywords: ["heist", "los angeles", "bank robbery"],
      directors: ["Michael Mann"],
      actors: ["Al Pacino", "Robert De Niro"],
      collection: [304, "Ocean's Collection"],
      language: "en",
      runtime: 157,
    }]);
    assert.equal((await picks(t, user, "?limit=1"))[0].catalogId, 1050);
    // Its features change: the next answer reads them again.
    await t.store.query(
      `update public.movies set directors = '{}', keywords = '{}', collection_id = null,
         actors = '{}', genres = '{Animation}' where catalog_id = 1050`,
    );
    assert.notEqual((await picks(t, user, "?limit=1"))[0].catalogId, 1050);
  });
}

Deno.test("genre names are read in any case or as TMDB ids; anything else is unknown", () => {
  assert.equal(genreName("science fiction"), "Science Fiction");
  assert.equal(genreName(" 878 "), "Science Fiction");
  assert.equal(genreName("Cartoons"), null);
  assert.equal(genreName("99999"), null);
});

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a list row stores its original language, and a row without one keeps the stored one`, async () => {
    await using store = await worldStore(engine);
    const row = (language: unknown) =>
      lightRow(tmdbListRow.parse({ ...POPULAR_FIXTURE_ROWS[0], original_language: language }));
    await upsertLight(store, [row("ko")], { now: 0 });
    const read = async () =>
      (await store.query<{ original_language: string | null }>(
        `select original_language from public.movies where catalog_id = $1`,
        [POPULAR_FIXTURE_ROWS[0].id],
      ))[0].original_language;
    assert.equal(await read(), "ko");
    await upsertLight(store, [row(null)], { now: 1 });
    assert.equal(await read(), "ko");
  });
}

Deno.test("after 6 hours the index is built again beside the one in use, which serves meanwhile", async () => {
  await using store = await worldStore("embedded");
  await seedFeatureMovies(store, worldMovies(2));
  const first = await currentIndex(store, { now: 0 });
  assert.equal(await currentIndex(store, { now: 6 * 3600_000 - 1 }), first);
  // Due: this call still answers with the index in use, and starts the new one.
  assert.equal(await currentIndex(store, { now: 6 * 3600_000 }), first);
  let next = first;
  for (let i = 0; i < 100 && next === first; i++) {
    await new Promise((r) => setTimeout(r, 20));
    next = await currentIndex(store, { now: 6 * 3600_000 + 1 });
  }
  assert.notEqual(next, first);
  assert.equal(next.slots.size, first.slots.size);
});
