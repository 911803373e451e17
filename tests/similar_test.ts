/**
 * "More like this" (docs/recommend.md, "Local picks"): GET /api/movies/:id/similar on both
 * stores, in the designed world of tests/helpers/local_world.ts.
 */
import assert from "node:assert/strict";
import { ENGINES } from "./helpers/store.ts";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";
import { similarMovies } from "@/lib/recommend/local/mod.ts";
import { F, rate, seedFeatureMovies, worldMovies, worldStore } from "./helpers/local_world.ts";

async function world(engine: (typeof ENGINES)[number], fillers = 10) {
  const store = await worldStore(engine);
  const app = await testApp({ engine, store });
  await seedFeatureMovies(app.store, worldMovies(fillers));
  const closeApp = app[Symbol.asyncDispose].bind(app);
  return Object.assign(app, {
    async [Symbol.asyncDispose]() {
      await closeApp();
      await store[Symbol.asyncDispose]();
    },
  });
}

interface SimilarCard {
  catalogId: number;
  title: string;
  reasons: string[];
}

async function similar(
  t: { request(path: string): Promise<Response> },
  id: number,
  query = "",
): Promise<SimilarCard[]> {
  const res = await t.request(`/api/movies/${id}/similar${query}`);
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()).movies;
}

const ids = (list: { catalogId: number }[]) => list.map((p) => p.catalogId);

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /api/movies/:id/similar answers the same director's films first, as cards with reasons, never the film itself, without a token`, async () => {
    await using t = await world(engine);
    const movies = await similar(t, F.heat);
    assert.ok(!ids(movies).includes(F.heat));
    assert.deepEqual(
      new Set(ids(movies).slice(0, 3)),
      new Set([F.thief, F.collateral, F.miamiVice]),
    );
    const thief = movies.find((m) => m.catalogId === F.thief)!;
    assert.deepEqual(Object.keys(thief).sort(), [
      "catalogId",
      "genres",
      "posterPath",
      "reasons",
      "runtime",
      "title",
      "year",
    ]);
    assert.equal(thief.title, "Thief");
    assert.equal(thief.reasons[0], "Also directed by Michael Mann");
    assert.ok(thief.reasons.includes("Also about heist"), thief.reasons.join("|"));
    // Only films that share something: the fillers share nothing with Heat.
    assert.ok(!ids(movies).some((id) => id > 1100));
  });

  Deno.test(`[${engine}] a collection's films come first for one of them, said so`, async () => {
    await using t = await world(engine);
    const movies = await similar(t, F.oceans11, "?limit=2");
    assert.deepEqual(new Set(ids(movies)), new Set([F.oceans12, F.oceans13]));
    for (const m of movies) assert.equal(m.reasons[0], "Also in Ocean's Collection");
    // The service under the route: the same order, and traits that drove it.
    const direct = await similarMovies(t.deps, F.oceans11, { limit: 2 });
    assert.deepEqual(ids(direct), ids(movies));
    assert.equal(direct[0].traits[0], "Ocean's Collection");
  });

  Deno.test(`[${engine}] similar's limit holds at 1, 12 (default) and 24; 0, 25 and words are 400 invalid_query; a bad id is 400, an unknown one 404`, async () => {
    await using t = await world(engine, 40);
    // The fillers share a genre, a language and mostly a decade: plenty of neighbours.
    assert.equal((await similar(t, 1101, "?limit=1")).length, 1);
    assert.equal((await similar(t, 1101)).length, 12);
    assert.equal((await similar(t, 1101, "?limit=24")).length, 24);
    for (const q of ["?limit=0", "?limit=25", "?limit=ten", "?limit=-1"]) {
      const res = await t.request(`/api/movies/1101/similar${q}`);
      assert.equal(res.status, 400, q);
      assert.equal((await res.json()).code, "invalid_query");
    }
    let res = await t.request("/api/movies/abc/similar");
    assert.equal(res.status, 400);
    assert.equal((await res.json()).code, "invalid_catalog_id");
    res = await t.request("/api/movies/999999/similar");
    assert.equal(res.status, 404);
    assert.equal((await res.json()).code, "movie_not_found");
  });

  Deno.test(`[${engine}] similar counts co-watching only from 3 users on, and names nobody`, async () => {
    await using t = await world(engine);
    const users = [];
    for (let i = 0; i < 3; i++) users.push(await createUser(t.deps));
    // Popular 1 and Popular 7 share only the genre and the language with each other.
    for (const u of users.slice(0, 2)) await rate(t.store, u.id, [[1101, null], [1107, 9]]);
    const two = (await similar(t, 1101, "?limit=24")).find((m) => m.catalogId === 1107)!;
    assert.ok(!two.reasons.some((r) => /watched together/.test(r)), two.reasons.join("|"));
    await rate(t.store, users[2].id, [[1101, 5], [1107, null]]);
    const three = await similar(t, 1101, "?limit=24");
    assert.equal(three[0].catalogId, 1107);
    assert.ok(three[0].reasons.includes("Often watched together with this film by people here"));
    const text = JSON.stringify(three);
    for (const u of users) assert.ok(!text.includes(u.id) && !text.includes(u.email));
  });
}

Deno.test("the movie page shows More like this from the same service, with each card's reason", async () => {
  await using t = await world("embedded");
  const res = await t.request(`/movies/${F.heat}`);
  assert.equal(res.status, 200);
  const html = await res.text();
  const section = html.slice(html.indexOf('id="more-like-this-heading"'));
  assert.match(section, /More like this/);
  for (const title of ["Thief", "Collateral", "Miami Vice"]) {
    assert.ok(section.includes(title), title);
  }
  assert.ok(section.includes("Also directed by Michael Mann"));
  assert.ok(!section.includes(`href="/movies/${F.heat}"`));
});
