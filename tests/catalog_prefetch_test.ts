import assert from "node:assert/strict";
import { DETAIL_TTL_MS } from "../lib/catalog/movies_store.ts";
import { createCatalogService } from "../lib/catalog/service.ts";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { settledApp } from "./helpers/settled.ts";
import { createUser } from "./helpers/users.ts";

Deno.test("POST /api/watched of an unknown id fetches its details; the card hydrates", async () => {
  await using fake = await startFakeTmdb({ latencyMs: 50 });
  await using t = await settledApp({ env: tmdbEnv(fake) });
  const u = await createUser(t.deps);
  const headers = { ...u.headers, "content-type": "application/json" };
  const res = await t.request("/api/watched", {
    method: "POST",
    headers,
    body: JSON.stringify({ catalogId: 550 }),
  });
  assert.equal(res.status, 200);
  await res.body?.cancel();

  const cards = async () => (await (await t.request("/api/watched", { headers })).json()).movies;
  await t.settled();
  assert.notEqual((await cards())[0].title, "");
  assert.deepEqual(await cards(), [{
    catalogId: 550,
    title: "Fight Club",
    year: 1999,
    posterPath: "/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg",
    genres: ["Drama", "Thriller", "Comedy"],
    runtime: 103,
  }]);
  assert.deepEqual(fake.requests.map((r) => r.path), ["/movie/550"]);
});

Deno.test("POST /api/mylist of a movie known only as a light popular row fetches its details", async () => {
  await using fake = await startFakeTmdb();
  await using t = await settledApp({ env: tmdbEnv(fake) });
  const u = await createUser(t.deps);
  await t.store.query(
    `insert into public.movies (catalog_id, title, year, has_details) values (550, 'Fight Club', 1999, false)`,
  );
  const headers = { ...u.headers, "content-type": "application/json" };
  const res = await t.request("/api/mylist", {
    method: "POST",
    headers,
    body: JSON.stringify({ catalogId: 550 }),
  });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  const cards = async () => (await (await t.request("/api/mylist", { headers })).json()).movies;
  await t.settled();
  assert.equal((await cards())[0].runtime, 103);
  assert.deepEqual(fake.requests.map((r) => r.path), ["/movie/550"]);
});

Deno.test("an unknown id TMDB lacks leaves the fallback card and never fails the write", async () => {
  await using fake = await startFakeTmdb();
  await using t = await settledApp({ env: tmdbEnv(fake) });
  const u = await createUser(t.deps);
  const headers = { ...u.headers, "content-type": "application/json" };
  const res = await t.request("/api/mylist", {
    method: "POST",
    headers,
    body: JSON.stringify({ catalogId: 999999999 }),
  });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  await t.settled();
  assert.equal(fake.requests.length, 1);
  const { movies } = await (await t.request("/api/mylist", { headers })).json();
  assert.deepEqual(movies, [{
    catalogId: 999999999,
    title: "",
    year: 0,
    posterPath: "",
    genres: [],
    runtime: 0,
  }]);
});

Deno.test("prefetch fetches only missing or stale ids, once each, and reports failures", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  const clock = t.clock;
  const catalog = createCatalogService(t.deps);
  const first = await catalog.prefetch([550, 84892, 550, 999999999]);
  assert.equal(first.fetched, 2);
  assert.deepEqual(first.failed.map((f) => f.id), [999999999]);
  assert.match(first.failed[0].error, /^movie_not_found/);
  assert.equal(fake.requests.length, 3);

  assert.deepEqual(await catalog.staleIds([550, 84892, 13]), [13]);
  assert.deepEqual(await catalog.prefetch([550, 84892]), { fetched: 0, failed: [] });
  assert.equal(fake.requests.length, 3);

  clock.advance(DETAIL_TTL_MS);
  assert.deepEqual(await catalog.staleIds([550, 84892]), [550, 84892]);
  assert.deepEqual(await catalog.prefetch([550]), { fetched: 1, failed: [] });
  assert.equal(fake.requests.length, 4);
  assert.deepEqual(await catalog.staleIds([]), []);
});

Deno.test("without TMDB credentials a list write still succeeds; the prefetch fails quietly", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const res = await t.request("/api/watched", {
    method: "POST",
    headers: { ...u.headers, "content-type": "application/json" },
    body: JSON.stringify({ catalogId: 4242 }),
  });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { success: true, watchedCount: null });
  const outcome = await createCatalogService(t.deps).prefetch([4242]);
  assert.equal(outcome.fetched, 0);
  assert.match(outcome.failed[0].error, /^catalog_not_configured/);
  assert.ok(!t.logs.some((l) => l.level === "error"));
});

Deno.test("staleIds looks 12,002 ids up 2,000 a statement and names only the two the store lacks", async () => {
  await using t = await testApp();
  const now = new Date(t.clock.now()).toISOString();
  await t.store.query(
    `insert into public.movies (catalog_id, title, has_details, actors, directors, cached_at)
     select g, 'Fresh ' || g, true, '{}', '{}', $1::timestamptz
       from generate_series(2000001, 2012000) g`,
    [now],
  );
  const ids = [13, ...Array.from({ length: 12_000 }, (_, i) => 2_000_001 + i), 14];
  const before = t.store.stats.queries;
  assert.deepEqual(await createCatalogService(t.deps).staleIds(ids), [13, 14]);
  assert.equal(t.store.stats.queries - before, Math.ceil(12_002 / 2_000));
});
