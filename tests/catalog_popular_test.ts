import assert from "node:assert/strict";
import { POPULAR_TTL_MS } from "../lib/catalog/popular_cache.ts";
import { getJson, testApp } from "./helpers/app.ts";
import { popularBody, popularId, startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";

Deno.test("popular answers {page,totalPages,results} with rows filtered as search rows", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  const body = popularBody(1, 3);
  const rows = body.results as Record<string, unknown>[];
  rows[1] = { ...rows[1], poster_path: null };
  rows[2] = { ...rows[2], release_date: "" };
  rows[3] = { ...rows[3], vote_average: 0 };
  fake.popular.set(1, { ...body, total_pages: 38029 });

  const res = await getJson(t, "/api/movies/popular");
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body), ["page", "totalPages", "results"]);
  assert.equal(res.body.page, 1);
  // TMDB counts tens of thousands of pages but serves only 500.
  assert.equal(res.body.totalPages, 500);
  assert.equal(res.body.results.length, 17);
  assert.deepEqual(res.body.results[0], {
    id: 640146,
    title: "Ant-Man and the Wasp: Quantumania",
    original_title: "Ant-Man and the Wasp: Quantumania",
    poster_path: "/ngl2FKBlU4fhbdsrtdom9LVLBXw.jpg",
    release_date: "2023-02-15",
    vote_average: 6.5,
    genre_ids: [28, 12, 878],
  });
  assert.equal(fake.requests[0].path, "/movie/popular");
  assert.equal(fake.requests[0].query.get("page"), "1");
  assert.equal(res.headers.get("x-ratelimit-remaining"), "39");

  const page3 = await getJson(t, "/api/movies/popular?page=3");
  assert.equal(page3.body.page, 3);
  assert.equal(page3.body.results[0].id, popularId(3, 0));
});

Deno.test("popular page must be an integer from 1 to 500", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  for (const page of ["0", "501", "-1", "1.5", "abc", "", "1e2"]) {
    const res = await getJson(t, `/api/movies/popular?page=${page}`);
    assert.equal(res.status, 400, page);
    assert.equal(res.body.code, "invalid_query", page);
  }
  assert.equal((await getJson(t, "/api/movies/popular?page=500")).status, 200);
  assert.equal(fake.requests.length, 1);
});

Deno.test("a popular page is cached 6 hours in KV, shared by instances", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  const clock = t.clock;
  const first = await getJson(t, "/api/movies/popular?page=2");
  assert.equal(fake.requests.length, 1);

  clock.advance(POPULAR_TTL_MS - 1);
  await using other = await testApp({ env: tmdbEnv(fake), kv: t.kv, clock, store: t.store });
  const cached = await getJson(other, "/api/movies/popular?page=2");
  assert.deepEqual(cached.body, first.body);
  assert.equal(cached.headers.get("x-ratelimit-limit"), "40");
  assert.equal(fake.requests.length, 1);

  clock.advance(1);
  await getJson(t, "/api/movies/popular?page=2");
  assert.equal(fake.requests.length, 2);
});

Deno.test("popular rows are stored as light rows with genre names", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  await getJson(t, "/api/movies/popular");
  const rows = await t.store.query<Record<string, unknown>>(
    `select catalog_id, title, year, to_char(release_date, 'YYYY-MM-DD') as release_date,
            poster_path, genre_ids, genres, vote_average, has_details, runtime, actors
       from public.movies order by popularity desc`,
  );
  assert.equal(rows.length, 20);
  assert.deepEqual(rows[0], {
    catalog_id: 640146,
    title: "Ant-Man and the Wasp: Quantumania",
    year: 2023,
    release_date: "2023-02-15",
    poster_path: "/ngl2FKBlU4fhbdsrtdom9LVLBXw.jpg",
    genre_ids: [28, 12, 878],
    genres: ["Action", "Adventure", "Science Fiction"],
    vote_average: 6.5,
    has_details: false,
    runtime: null,
    actors: null,
  });

  // A light row is incomplete for the detail route: it fetches the details.
  const detail = await getJson(t, "/api/movies/640146");
  assert.equal(detail.status, 200);
  assert.equal(fake.requests.filter((r) => r.path === "/movie/640146").length, 1);
});

Deno.test("a light upsert never erases the details of a complete row", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  const id = 640146;
  assert.equal((await t.request(`/api/movies/${id}`)).status, 200);
  const [before] = await t.store.query<Record<string, unknown>>(
    `select * from public.movies where catalog_id = $1`,
    [id],
  );
  assert.equal(before.has_details, true);

  // TMDB's popular row now has newer votes and lacks the poster.
  const body = popularBody(1, 3);
  const rows = body.results as Record<string, unknown>[];
  rows[0] = { ...rows[0], vote_average: 9.1, popularity: 1, poster_path: null };
  fake.popular.set(1, body);
  await getJson(t, "/api/movies/popular");

  const [after] = await t.store.query<Record<string, unknown>>(
    `select * from public.movies where catalog_id = $1`,
    [id],
  );
  for (
    const column of [
      "runtime",
      "actors",
      "directors",
      "trailer_url",
      "has_details",
      "cached_at",
      "overview",
      "genres",
      "poster_path",
    ]
  ) {
    assert.deepEqual(after[column], before[column], column);
  }
  assert.equal(after.vote_average, 9.1);
  // Still fresh and complete: the detail route makes no call.
  const calls = fake.requests.length;
  assert.equal((await t.request(`/api/movies/${id}`)).status, 200);
  assert.equal(fake.requests.length, calls);
});
