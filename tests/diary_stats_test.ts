import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { problem } from "./helpers/problems.ts";
import { send } from "./helpers/watched_entries.ts";

type T = Awaited<ReturnType<typeof testApp>>;

// Ids no other test uses, since the PostgreSQL store's movies table is shared by the run.
const B = 1_900_000_000;
const MOVIES = [
  [1, "Pulp", 1994, 120, ["Drama", "Crime"], ["Dee One"], ["Ex", "Why"]],
  [2, "Laugh", 2001, 90, ["Comedy"], ["Dee Two"], ["Ex"]],
  [3, "Rain", 1999, 100, ["Drama"], ["Dee One"], ["Zed"]],
] as const;

// A small known diary: two years, rewatches, a movie watched with no viewing in each year,
// and one movie the store has no row for.
async function knownDiary(t: T, u: TestUser) {
  for (const [id, title, year, runtime, genres, directors, actors] of MOVIES) {
    await t.store.query(
      `insert into public.movies
         (catalog_id, title, year, runtime, genres, directors, actors, has_details)
       values ($1, $2, $3, $4, $5, $6, $7, true)
       on conflict (catalog_id) do update set title = excluded.title, year = excluded.year,
         runtime = excluded.runtime, genres = excluded.genres, directors = excluded.directors,
         actors = excluded.actors`,
      [B + id, title, year, runtime, genres, directors, actors],
    );
  }
  const viewings = [
    { catalogId: B + 1, watchedOn: "2025-01-10", rating: 8 },
    { catalogId: B + 1, watchedOn: "2025-03-05", rating: 10 },
    { catalogId: B + 2, watchedOn: "2025-03-20", rating: 4 },
    { catalogId: B + 3, watchedOn: "2024-12-31", rating: 6 },
    { catalogId: B + 3, watchedOn: "2025-12-31" },
  ];
  for (const v of viewings) {
    const res = await t.request("/api/diary", send(u, "POST", v));
    assert.equal(res.status, 201);
  }
  for (
    const w of [{ catalogId: B + 4, watchedOn: "2025-07-04", rating: 7 }, {
      catalogId: B + 5,
      watchedOn: "2024-05-05",
    }]
  ) {
    await (await t.request("/api/watched", send(u, "POST", w))).body?.cancel();
  }
}

const zeros = (n: number) => Array.from({ length: n }, () => 0);
const histogram = (counts: Record<number, number>) =>
  Object.fromEntries(zeros(10).map((_, i) => [String(i + 1), counts[i + 1] ?? 0]));

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /api/stats?year= gives the exact numbers of a small known diary`, async () => {
    await using t = await testApp({ engine });
    t.clock.set("2026-02-01T12:00:00Z");
    const u = await createUser(t.deps);
    await knownDiary(t, u);
    const res = await t.request("/api/stats?year=2025", { headers: u.headers });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      year: 2025,
      films: 4,
      viewings: 5,
      rewatches: 2,
      // Movie 4 has no stored details: still being fetched, and without a known runtime.
      incomplete: 1,
      // 120 + 120 + 90 + 100 minutes; movie 4 has no known runtime.
      hours: 7.2,
      ratings: { count: 4, average: 7.25, histogram: histogram({ 4: 1, 7: 1, 8: 1, 10: 1 }) },
      byMonth: [1, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 1],
      genres: [{ name: "Drama", count: 2 }, { name: "Comedy", count: 1 }, {
        name: "Crime",
        count: 1,
      }],
      directors: [{ name: "Dee One", count: 2 }, { name: "Dee Two", count: 1 }],
      actors: [{ name: "Ex", count: 2 }, { name: "Why", count: 1 }, { name: "Zed", count: 1 }],
      decades: [{ decade: 1990, count: 2 }, { decade: 2000, count: 1 }],
      topRated: [1, 4, 2].map((n) => B + n),
      firstWatch: { catalogId: B + 1, watchedOn: "2025-01-10" },
      lastWatch: { catalogId: B + 3, watchedOn: "2025-12-31" },
    });
  });

  Deno.test(`[${engine}] GET /api/stats without a year covers all time, and an empty year is zeros`, async () => {
    await using t = await testApp({ engine });
    t.clock.set("2026-02-01T12:00:00Z");
    const u = await createUser(t.deps);
    await knownDiary(t, u);
    const all = await (await t.request("/api/stats", { headers: u.headers })).json();
    assert.deepEqual(
      [all.year, all.films, all.viewings, all.rewatches, all.incomplete, all.hours, all.byMonth],
      [null, 5, 7, 2, 2, 8.8, null],
    );
    assert.deepEqual(all.ratings, {
      count: 5,
      average: 7,
      histogram: histogram({ 4: 1, 6: 1, 7: 1, 8: 1, 10: 1 }),
    });
    assert.deepEqual(all.topRated, [1, 4, 3, 2].map((n) => B + n));
    assert.deepEqual(all.firstWatch, { catalogId: B + 5, watchedOn: "2024-05-05" });
    const empty = await (await t.request("/api/stats?year=2026", { headers: u.headers })).json();
    assert.deepEqual(empty, {
      year: 2026,
      films: 0,
      viewings: 0,
      rewatches: 0,
      incomplete: 0,
      hours: 0,
      ratings: { count: 0, average: null, histogram: histogram({}) },
      byMonth: zeros(12),
      genres: [],
      directors: [],
      actors: [],
      decades: [],
      topRated: [],
      firstWatch: null,
      lastWatch: null,
    });
    // Another user's diary counts for nothing here.
    const other = await createUser(t.deps);
    const theirs = await (await t.request("/api/stats", { headers: other.headers })).json();
    assert.equal(theirs.viewings, 0);
  });

  Deno.test(`[${engine}] the stats are one statement whatever the history's size`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await knownDiary(t, u);
    const before = t.store.stats.queries;
    await t.services.diary.stats(u.id, 2025);
    assert.equal(t.store.stats.queries - before, 1);
  });

  Deno.test(`[${engine}] GET /api/stats refuses a bad year with invalid_query`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    for (const q of ["year=25", "year=1873", "year=abcd", "month=1"]) {
      await problem(
        await t.request(`/api/stats?${q}`, { headers: u.headers }),
        400,
        "invalid_query",
      );
    }
    assert.equal((await t.request("/api/stats?year=1874", { headers: u.headers })).status, 200);
    await problem(await t.request("/api/stats"), 401, "unauthorized");
  });
}
