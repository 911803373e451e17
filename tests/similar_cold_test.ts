/**
 * "More like this" while the index is still being built (docs/recommend.md, "Local picks", "A
 * cold start"): the build started at start-up runs off the request path, and until it is done the
 * answer comes from one statement over the page's film's features. The build's page reads are
 * held behind a gate here, so "not ready yet" is a fact of the test, not a race.
 */
import assert from "node:assert/strict";
import { ENGINES } from "./helpers/store.ts";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { createLocalRecommendService, localPicks } from "@/lib/recommend/local/mod.ts";
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

/** The store with the index's page reads held until `open()`; every other statement runs. */
function gated(store: Store) {
  const gate = Promise.withResolvers<void>();
  let held = 0;
  const query = async (text: string, params?: unknown[]) => {
    if (text.includes("string_agg(concat_ws")) {
      held++;
      await gate.promise;
    }
    return store.query(text, params);
  };
  const proxy = new Proxy(store, {
    get: (target, prop) =>
      prop === "query" ? query : Reflect.get(target, prop, target)?.bind?.(target),
  });
  return { store: proxy as Store, open: () => gate.resolve(), held: () => held };
}

const ids = (list: { catalogId: number }[]) => list.map((p) => p.catalogId);

for (const engine of ENGINES) {
  Deno.test(`[${engine}] while the index is built in the background, more like this answers at once from the film's own features: the same director's films first, the collection said so, never the film itself`, async () => {
    await using t = await world(engine);
    const g = gated(t.store);
    const service = createLocalRecommendService({ ...t.deps, store: g.store });
    const ready = service.warm();
    const heat = await service.similar(F.heat, { limit: 12 });
    assert.equal(g.held(), 1, "the build is under way, held at its first page");
    assert.deepEqual(new Set(ids(heat).slice(0, 3)), new Set([F.thief, F.collateral, F.miamiVice]));
    assert.ok(!ids(heat).includes(F.heat));
    // Only films sharing something telling: the fillers share nothing, the weddings nothing.
    assert.ok(!ids(heat).some((id) => id > 1100 || (id >= F.wedding1 && id <= F.wedding3)));
    const thief = heat.find((m) => m.catalogId === F.thief)!;
    assert.equal(thief.title, "Thief");
    assert.equal(thief.reasons[0], "Also directed by Michael Mann");
    assert.ok(thief.reasons.includes("Also about heist"), thief.reasons.join("|"));
    assert.deepEqual(Object.keys(thief).sort(), [
      "catalogId",
      "genres",
      "posterPath",
      "reasons",
      "runtime",
      "title",
      "year",
    ]);
    const oceans = await service.similar(F.oceans11, { limit: 2 });
    assert.deepEqual(ids(oceans), [F.oceans12, F.oceans13]);
    for (const m of oceans) assert.equal(m.reasons[0], "Also in Ocean's Collection");
    // A film sharing only a keyword with Heat comes after Mann's, said so.
    const seoul = heat.find((m) => m.catalogId === F.korean)!;
    assert.ok(ids(heat).indexOf(F.korean) > 2);
    assert.ok(seoul.reasons.includes("Also about heist"), seoul.reasons.join("|"));
    // The limit holds; a film not stored is 404 movie_not_found; one sharing nothing gets none.
    assert.equal((await service.similar(F.heat, { limit: 1 })).length, 1);
    await assert.rejects(service.similar(999_999, { limit: 12 }), /No stored movie/);
    assert.deepEqual(await service.similar(1101, { limit: 12 }), []);

    // Built: the index answers (a filler's neighbours by genre and language are listed now).
    g.open();
    await ready;
    const after = await service.similar(1101, { limit: 12 });
    assert.ok(after.length > 0 && after.every((m) => m.catalogId > 1100));
    // The decade is named as one ("1950s", where the key holds 1950).
    assert.ok(after[0].reasons.includes("Also from the 1950s"), after[0].reasons.join("|"));
    assert.deepEqual(
      new Set(ids(await service.similar(F.heat, { limit: 12 })).slice(0, 3)),
      new Set([F.thief, F.collateral, F.miamiVice]),
    );
  });

  Deno.test(`[${engine}] local picks during the background build wait for it and answer from the index; a failed build is started again by the next request`, async () => {
    await using t = await world(engine);
    const user = await createUser(t.deps);
    await rate(t.store, user.id, [[F.heat, 9], [F.oceans11, 8], [F.wedding1, 2]]);
    const expected = ids(await localPicks(t.deps, user.id, { limit: 5 }));

    const g = gated(t.store);
    const deps = { ...t.deps, store: g.store };
    const service = createLocalRecommendService(deps);
    const ready = service.warm();
    let done = false;
    const picks = service.picks(user.id, { limit: 5 }).finally(() => done = true);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(done, false, "picks wait for the index");
    g.open();
    await ready;
    assert.deepEqual(ids(await picks), expected);

    // A build that fails leaves no index behind: the next "more like this" answers from the
    // statement and starts the build again, which then serves.
    let fail = true;
    const failing = new Proxy(t.store, {
      get: (target, prop) =>
        prop === "query"
          ? (text: string, params?: unknown[]) =>
            fail && text.includes("string_agg(concat_ws")
              ? Promise.reject(new Error("store down"))
              : target.query(text, params)
          : Reflect.get(target, prop, target)?.bind?.(target),
    }) as Store;
    const again = createLocalRecommendService({ ...t.deps, store: failing });
    await again.warm();
    fail = false;
    const cold = await again.similar(1101, { limit: 12 });
    assert.deepEqual(cold, [], "from the statement: a filler shares nothing telling");
    await again.warm();
    assert.ok((await again.similar(1101, { limit: 12 })).length > 0, "from the index");
  });
}
