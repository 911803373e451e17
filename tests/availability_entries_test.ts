import assert from "node:assert/strict";
import { DEFAULT_MY_LIST_QUERY, DEFAULT_WATCHED_QUERY } from "../lib/library/entries/list_query.ts";
import { PendingSession } from "../lib/identity/auth/pending_session.ts";
import { storeProviders } from "../lib/catalog/providers.ts";
import { listSql } from "../lib/library/entries/list_sql.ts";
import { type TestApp, testApp } from "./helpers/app.ts";
import {
  APPLE,
  MUBI,
  NETFLIX,
  P,
  PRIME,
  regionOffers,
  seedMovie,
} from "./helpers/availability_world.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

// My List of five: 1 streams on Netflix (US), 2 only rents on Netflix, 3 streams on Netflix in
// GB only, 4 is on Prime with ads and included (listed once, as included), 5 has no movie row,
// 6 streams free on MUBI (not mine).
async function world(t: TestApp, user: TestUser) {
  await seedMovie(t.store, {
    id: 1,
    providers: { US: regionOffers({ flatrate: [NETFLIX, MUBI] }) },
  });
  await seedMovie(t.store, {
    id: 2,
    providers: { US: regionOffers({ rent: [NETFLIX], buy: [APPLE] }) },
  });
  await seedMovie(t.store, { id: 3, providers: { GB: regionOffers({ flatrate: [NETFLIX] }) } });
  await seedMovie(t.store, {
    id: 4,
    providers: { US: regionOffers({ ads: [PRIME], flatrate: [PRIME, NETFLIX] }) },
  });
  await seedMovie(t.store, { id: 6, providers: { US: regionOffers({ free: [MUBI] }) } });
  await t.store.query(
    `insert into public.user_my_list (user_id, catalog_ids) values ($1, '{6,4,5,3,2,1}')`,
    [user.id],
  );
  await t.store.query(
    `insert into public.user_watched_movies (user_id, catalog_id, created_at)
     select $1, g, '2026-01-01'::timestamptz + g * interval '1 day' from unnest('{1,2,4}'::int[]) g`,
    [user.id],
  );
}

async function read(t: TestApp, user: TestUser, path: string) {
  const res = await t.request(path, { headers: user.headers });
  return { status: res.status, body: await res.json() };
}

async function choose(t: TestApp, user: TestUser, body: unknown) {
  const res = await t.request("/api/me/services", {
    method: "PUT",
    headers: { ...user.headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200);
}

const ids = (body: { movies: { catalogId: number }[] }) => body.movies.map((m) => m.catalogId);

for (const engine of ENGINES) {
  Deno.test(`[${engine}] available=mine keeps what streams on my services in my region, in list order, in one query`, async () => {
    await using t = await testApp({ engine });
    const user = await createUser(t.deps);
    await world(t, user);
    const none = await read(t, user, "/api/mylist?available=mine");
    assert.equal(none.status, 400);
    assert.equal(none.body.code, "no_services");
    await choose(t, user, { region: "US", providers: [P(8), P(9)] });
    for (
      const [path, expected] of [
        ["/api/mylist?available=mine", [4, 1]],
        ["/api/mylist?available=mine&sort=title&order=desc", [4, 1]],
        ["/api/watched?available=mine", [4, 1]],
        ["/api/mylist", [6, 4, 5, 3, 2, 1]],
      ] as const
    ) {
      const before = t.store.stats.queries;
      const res = await read(t, user, path);
      assert.equal(res.status, 200, path);
      assert.deepEqual(ids(res.body), expected, path);
      assert.equal(t.store.stats.queries - before, 1, path);
    }
    await choose(t, user, { region: "GB" });
    assert.deepEqual(ids((await read(t, user, "/api/mylist?available=mine")).body), [3]);
    // Services chosen but nothing of them available: an empty list, not an error.
    await choose(t, user, { region: "US", providers: [P(337)] });
    assert.deepEqual(await read(t, user, "/api/mylist?available=mine"), {
      status: 200,
      body: { success: true, movies: [] },
    });
    await choose(t, user, { providers: [] });
    assert.equal((await read(t, user, "/api/watched?available=mine")).body.code, "no_services");
    for (const bad of ["available=all", "available=mine&available=mine", "include=entry"]) {
      const res = await read(t, user, `/api/mylist?${bad}`);
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.code, "invalid_query", bad);
    }
  });

  Deno.test(`[${engine}] include=availability adds my providers to each card, each once at its best kind`, async () => {
    await using t = await testApp({ engine });
    const user = await createUser(t.deps);
    await world(t, user);
    // Without services: every card says none.
    const bare = await read(t, user, "/api/mylist?include=availability");
    assert.deepEqual(bare.body.movies.map((m: { availability: unknown }) => m.availability), [
      [],
      [],
      [],
      [],
      [],
      [],
    ]);
    await choose(t, user, { providers: [P(8), P(9)] });
    const mine = await read(t, user, "/api/mylist?include=availability");
    assert.deepEqual(
      Object.fromEntries(
        mine.body.movies.map((
          m: { catalogId: number; availability: unknown },
        ) => [m.catalogId, m.availability]),
      ),
      {
        6: [],
        4: [{ id: P(9), name: "Amazon Prime Video", kind: "flatrate" }, {
          id: P(8),
          name: "Netflix",
          kind: "flatrate",
        }],
        5: [],
        3: [],
        2: [],
        1: [{ id: P(8), name: "Netflix", kind: "flatrate" }],
      },
    );
    const card = mine.body.movies[5];
    assert.deepEqual(Object.keys(card), [
      "catalogId",
      "title",
      "year",
      "posterPath",
      "genres",
      "runtime",
      "availability",
    ]);
    const watched = await read(t, user, "/api/watched?include=entry,availability&available=mine");
    assert.deepEqual(ids(watched.body), [4, 1]);
    assert.deepEqual(Object.keys(watched.body.movies[0]), [
      "catalogId",
      "title",
      "year",
      "posterPath",
      "genres",
      "runtime",
      "availability",
      "entry",
    ]);
    assert.equal(watched.body.movies[0].entry.catalogId, 4);
  });

  Deno.test(`[${engine}] another user's services never change my list's availability`, async () => {
    await using t = await testApp({ engine });
    const user = await createUser(t.deps);
    const other = await createUser(t.deps);
    await world(t, user);
    await choose(t, other, { providers: [P(8), P(9), P(11)] });
    assert.equal((await read(t, user, "/api/mylist?available=mine")).body.code, "no_services");
    await choose(t, user, { providers: [P(11)] });
    assert.deepEqual(ids((await read(t, user, "/api/mylist?available=mine")).body), [6, 1]);
  });

  Deno.test(`[${engine}] the list follows a movie's providers each time they are stored again`, async () => {
    await using t = await testApp({ engine });
    const user = await createUser(t.deps);
    await world(t, user);
    await choose(t, user, { region: "US", providers: [P(8)] });
    const available = async () =>
      (await read(t, user, "/api/mylist?include=availability&available=mine")).body.movies.map((
        m: { catalogId: number; availability: { id: number; kind: string }[] },
      ) => [m.catalogId, m.availability.map((a) => `${a.id}:${a.kind}`)]);
    assert.deepEqual(await available(), [[4, [`${P(8)}:flatrate`]], [1, [`${P(8)}:flatrate`]]]);
    // The detail fetch's writer: 2 now streams free on Netflix, 1 only rents, and odd entries
    // (no id, a fraction, a string id) are skipped while a numeric string counts.
    await storeProviders(t.store, 2, {
      results: { US: regionOffers({ free: [NETFLIX] }) },
      at: t.clock.now(),
    });
    await storeProviders(t.store, 1, {
      results: {
        US: {
          rent: [NETFLIX],
          flatrate: [{ provider_name: "No id" }, { ...NETFLIX, provider_id: 990008.5 }],
        },
      },
      at: t.clock.now(),
    });
    await storeProviders(t.store, 3, {
      results: { US: { ads: [{ ...NETFLIX, provider_id: String(P(8)) }] } },
      at: t.clock.now(),
    });
    assert.deepEqual(await available(), [
      [4, [`${P(8)}:flatrate`]],
      [3, [`${P(8)}:ads`]],
      [2, [`${P(8)}:free`]],
    ]);
    // Providers stored as nothing at all: the movie streams nowhere.
    await t.store.query(`update public.movies set watch_providers = null where catalog_id = 4`);
    assert.deepEqual(ids((await read(t, user, "/api/mylist?available=mine")).body), [3, 2]);
  });
}

Deno.test("the statements of reads without the new parameters are the ones before them", () => {
  const live = () => Promise.resolve("live" as const);
  const sessionId = "00000000-0000-4000-8000-000000000001";
  for (
    const session of [
      undefined,
      new PendingSession(null, live, { aal1: false }),
      new PendingSession(sessionId, live, { aal1: true }),
    ]
  ) {
    assert.doesNotMatch(
      listSql("watched", DEFAULT_WATCHED_QUERY, session),
      /user_services|availab/,
    );
    assert.doesNotMatch(listSql("mylist", DEFAULT_MY_LIST_QUERY, session), /user_services|availab/);
  }
});
