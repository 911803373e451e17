import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { seedHistory } from "./helpers/entries_world.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";

// Query string → ids in the expected order (see tests/helpers/entries_world.ts).
const WATCHED: [string, number[]][] = [
  ["", [7, 6, 5, 4, 3, 2, 1]],
  ["sort=added", [7, 6, 5, 4, 3, 2, 1]],
  ["sort=added&order=asc", [1, 2, 3, 4, 5, 6, 7]],
  // Equal dates and ratings keep the list's own order (newest added first).
  ["sort=watched_on", [3, 6, 1, 2, 5, 7, 4]],
  ["sort=watched_on&order=asc", [7, 5, 2, 6, 1, 3, 4]],
  ["sort=rating", [6, 1, 4, 2, 7, 5, 3]],
  ["sort=rating&order=asc", [7, 2, 4, 6, 1, 5, 3]],
  // Titles as people read them (accents and case do not push a title to the end).
  ["sort=title", [2, 1, 6, 7, 4, 3, 5]],
  ["sort=title&order=desc", [3, 4, 7, 6, 1, 2, 5]],
  ["sort=year", [4, 3, 1, 6, 2, 7, 5]],
  ["sort=year&order=asc", [2, 6, 1, 3, 4, 7, 5]],
  ["sort=runtime", [3, 6, 1, 2, 7, 5, 4]],
  ["sort=runtime&order=asc", [7, 2, 1, 6, 3, 5, 4]],
  ["genre=drama", [7, 4, 3]],
  ["genre=COMEDY", [6, 1]],
  ["genre=Science%20Fiction&sort=title", [2, 6]],
  ["genre=Western", []],
  ["rated=true", [7, 6, 4, 2, 1]],
  ["rated=false", [5, 3]],
  ["rated=true&genre=drama&sort=rating&order=asc", [7, 4]],
  ["include=entry&sort=rating&rated=true", [6, 1, 4, 2, 7]],
];

const MY_LIST: [string, number[]][] = [
  ["", [3, 1, 5, 2, 4, 7]],
  ["sort=saved", [3, 1, 5, 2, 4, 7]],
  ["sort=saved&order=desc", [7, 4, 2, 5, 1, 3]],
  ["sort=title", [2, 1, 7, 4, 3, 5]],
  ["sort=year", [4, 3, 1, 2, 5, 7]],
  ["sort=runtime", [3, 1, 2, 7, 5, 4]],
  ["sort=runtime&order=asc", [7, 2, 1, 3, 5, 4]],
  ["genre=drama", [3, 4, 7]],
  ["genre=drama&sort=title", [7, 4, 3]],
];

const BAD: [string, string][] = [
  ["/api/watched", "sort=foo"],
  ["/api/watched", "sort="],
  ["/api/watched", "sort=saved"],
  ["/api/watched", "order=up"],
  ["/api/watched", "genre=Nope"],
  ["/api/watched", "genre="],
  ["/api/watched", "rated=yes"],
  ["/api/watched", "include=all"],
  ["/api/watched", "sort=title&sort=year"],
  ["/api/mylist", "sort=rating"],
  ["/api/mylist", "sort=watched_on"],
  ["/api/mylist", "genre=dramas"],
  ["/api/mylist", "order=DESC"],
];

for (const engine of ENGINES) {
  Deno.test(`[${engine}] every sort and filter of GET /api/watched and GET /api/mylist orders as documented, in one query`, async () => {
    await using t = await testApp({ engine });
    const watcher = await createUser(t.deps);
    const saver = await createUser(t.deps);
    await seedHistory(t.store, { watcher: watcher.id, saver: saver.id });
    const cases = [
      ...WATCHED.map(([q, ids]) => ["/api/watched", q, ids, watcher.headers] as const),
      ...MY_LIST.map(([q, ids]) => ["/api/mylist", q, ids, saver.headers] as const),
    ];
    for (const [path, query, expected, headers] of cases) {
      const before = t.store.stats.queries;
      const res = await t.request(`${path}?${query}`, { headers });
      const body = await res.json();
      const queries = t.store.stats.queries - before;
      assert.equal(res.status, 200, `${path}?${query}: ${JSON.stringify(body)}`);
      assert.deepEqual(body.movies.map((m: { catalogId: number }) => m.catalogId), expected, query);
      // An empty answer cannot show the token live, so it takes the session check's own query.
      assert.equal(queries, expected.length > 0 ? 1 : 2, `${path}?${query} queries`);
    }
  });

  Deno.test(`[${engine}] a sorted, filtered read with entries of 600 movies is still one query`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await t.store.query(
      `insert into public.movies (catalog_id, title, year, runtime, genres)
       select g, 'Movie ' || g, 1900 + g % 120, 60 + g % 100, array['Drama']
       from generate_series(100001, 100600) g on conflict (catalog_id) do nothing`,
    );
    await t.store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, rating)
       select $1, g, 1 + g % 10 from generate_series(100001, 100600) g`,
      [u.id],
    );
    for (const query of ["", "include=entry&sort=title&genre=drama&rated=true", "sort=rating"]) {
      const before = t.store.stats.queries;
      const res = await t.request(`/api/watched?${query}`, { headers: u.headers });
      assert.equal((await res.json()).movies.length, 600);
      assert.equal(t.store.stats.queries - before, 1, query);
    }
  });

  Deno.test(`[${engine}] include=entry adds each card's entry after its six fields`, async () => {
    await using t = await testApp({ engine });
    const watcher = await createUser(t.deps);
    const saver = await createUser(t.deps);
    await seedHistory(t.store, { watcher: watcher.id, saver: saver.id });
    await t.store.query(
      "update public.user_watched_movies set note = 'with Ana' where user_id = $1 and catalog_id = 1",
      [watcher.id],
    );
    const res = await t.request("/api/watched?include=entry&sort=added&order=asc", {
      headers: watcher.headers,
    });
    const { movies } = await res.json();
    assert.deepEqual(Object.keys(movies[0]), [
      "catalogId",
      "title",
      "year",
      "posterPath",
      "genres",
      "runtime",
      "entry",
    ]);
    assert.deepEqual(movies[0], {
      catalogId: 1,
      title: "Amélie",
      year: 2001,
      posterPath: "/p1.jpg",
      genres: ["Comedy", "Romance"],
      runtime: 122,
      entry: {
        catalogId: 1,
        rating: 9,
        watchedOn: "2024-01-05",
        note: "with Ana",
        addedAt: "2026-01-01T00:00:00.000Z",
      },
    });
    // The fallback card carries its entry too.
    assert.deepEqual(movies[4], {
      catalogId: 5,
      title: "",
      year: 0,
      posterPath: "",
      genres: [],
      runtime: 0,
      entry: {
        catalogId: 5,
        rating: null,
        watchedOn: "2022-01-01",
        note: null,
        addedAt: "2026-01-01T00:04:00.000Z",
      },
    });
  });

  Deno.test(`[${engine}] a list query value it does not take answers 400 invalid_query`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    for (const [path, query] of BAD) {
      const res = await t.request(`${path}?${query}`, { headers: u.headers });
      const body = await res.json();
      assert.equal(res.status, 400, `${path}?${query}`);
      assert.equal(body.code, "invalid_query", `${path}?${query}`);
    }
    // Names a list does not know are ignored, as on the other routes.
    const res = await t.request("/api/watched?page=2&_=1", { headers: u.headers });
    assert.equal(res.status, 200);
    await res.body?.cancel();
  });
}
