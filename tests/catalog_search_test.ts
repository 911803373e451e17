import assert from "node:assert/strict";
import type { FakeClock } from "../lib/clock.ts";
import { createCatalogService } from "../lib/catalog/service.ts";
import { createExternalWindow } from "../lib/catalog/external_window.ts";
import { createTmdbClient, RefusedPathError, tmdbUrl } from "../lib/catalog/tmdb_client.ts";
import { tmdbList } from "../lib/catalog/tmdb_schemas.ts";
import { Problem } from "../lib/problem.ts";
import { testApp } from "./helpers/app.ts";
import { searchBody, startFakeTmdb, TMDB_NOT_FOUND, tmdbEnv } from "./helpers/fake_tmdb.ts";
import rateLimitBody from "./fixtures/tmdb/tmdb-error-429-rate-limit.json" with { type: "json" };

const SEARCH_ROW_KEYS = [
  "genre_ids",
  "id",
  "original_title",
  "poster_path",
  "release_date",
  "title",
  "vote_average",
];

async function getJson(t: { request(path: string): Promise<Response> }, path: string) {
  const res = await t.request(path);
  return { status: res.status, headers: res.headers, body: await res.json() };
}

Deno.test("search drops rows without poster, release date or votes; rows have the 7 fields", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  fake.search = () => {
    const body = searchBody();
    const rows = body.results as Record<string, unknown>[];
    rows[0] = { ...rows[0], vote_average: 0 };
    return body;
  };
  const res = await getJson(t, "/api/movies/search?q=%20fight%20club%20");
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body), ["results"]);
  const ids = res.body.results.map((r: { id: number }) => r.id);
  // The fixture's 20 rows less: 550 (votes set to 0 here), 973534 (no poster, no date),
  // 259016, 104782, 289100, 151912, 322772 (no poster), 944789 (no date).
  assert.deepEqual(ids, [
    289732,
    323667,
    883656,
    347807,
    51021,
    532155,
    877672,
    877673,
    615408,
    969532,
    818666,
    935845,
  ]);
  for (const row of res.body.results) assert.deepEqual(Object.keys(row).sort(), SEARCH_ROW_KEYS);
  assert.deepEqual(res.body.results[0], {
    id: 289732,
    title: "Zombie Fight Club",
    original_title: "屍城",
    poster_path: "/u8u3KVq0qfJYmNDsaTVOXy4So6f.jpg",
    release_date: "2014-10-23",
    vote_average: 4.721,
    genre_ids: [28, 27],
  });
  const [sent] = fake.requests;
  assert.equal(sent.path, "/search/movie");
  assert.equal(sent.query.get("query"), "fight club");
  assert.equal(sent.query.get("page"), "1");
  assert.equal(sent.query.get("include_adult"), "false");
  assert.equal(sent.query.has("year"), false);
  assert.equal(res.headers.get("x-ratelimit-limit"), "40");
  assert.equal(res.headers.get("x-ratelimit-remaining"), "39");
  assert.equal(
    res.headers.get("x-ratelimit-reset"),
    String(Math.floor(t.clock.now() / 1000) + 1),
  );
});

Deno.test("search passes year and page on to TMDB", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  assert.equal((await getJson(t, "/api/movies/search?q=Dune&year=2021&page=2")).status, 200);
  assert.equal(fake.requests[0].query.get("year"), "2021");
  assert.equal(fake.requests[0].query.get("page"), "2");
});

Deno.test("search without a usable q is 400 invalid_query and calls nothing", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  for (
    const query of [
      "",
      "?q=",
      "?q=%20%20%09",
      "?query=dune",
      `?q=${"a".repeat(201)}`,
      "?q=dune&year=21",
      "?q=dune&page=0",
      "?q=dune&page=501",
    ]
  ) {
    const res = await getJson(t, `/api/movies/search${query}`);
    assert.equal(res.status, 400, query);
    assert.equal(res.body.code, "invalid_query", query);
    assert.equal(res.headers.get("x-ratelimit-limit"), "40", query);
  }
  assert.equal((await getJson(t, `/api/movies/search?q=${"a".repeat(200)}`)).status, 200);
  assert.equal(fake.requests.length, 1);
});

Deno.test("an upstream 429 is 429 rate_limited and closes the window until Retry-After", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  const clock = t.clock as FakeClock;
  fake.override = () =>
    Response.json(rateLimitBody, { status: 429, headers: { "retry-after": "3" } });
  const first = await getJson(t, "/api/movies/search?q=dune");
  assert.equal(first.status, 429);
  assert.equal(first.body.code, "rate_limited");
  assert.equal(first.headers.get("retry-after"), "3");
  assert.equal(first.headers.get("x-ratelimit-remaining"), "0");
  assert.equal(
    first.headers.get("x-ratelimit-reset"),
    String(Math.ceil((t.clock.now() + 3000) / 1000)),
  );
  fake.override = undefined;

  // Closed for everyone: no request leaves until Retry-After has passed.
  clock.advance(2000);
  const blocked = await getJson(t, "/api/movies/search?q=dune");
  assert.equal(blocked.status, 429);
  assert.equal(blocked.headers.get("retry-after"), "1");
  assert.equal(fake.requests.length, 1);

  clock.advance(1000);
  assert.equal((await getJson(t, "/api/movies/search?q=dune")).status, 200);
  assert.equal(fake.requests.length, 2);
});

Deno.test("a detail request waits out an upstream 429 without Retry-After (next window)", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  let refused = false;
  fake.override = () => {
    if (refused) return undefined;
    refused = true;
    return Response.json(rateLimitBody, { status: 429 });
  };
  const started = t.clock.now();
  const res = await getJson(t, "/api/movies/550");
  assert.equal(res.status, 200);
  assert.equal(fake.requests.length, 2);
  assert.equal(t.clock.now(), Math.floor(started / 1000) * 1000 + 1000);
});

Deno.test("a detail request that keeps meeting upstream 429s is 503 upstream_busy, not 429", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  fake.override = () => Response.json(rateLimitBody, { status: 429 });
  const res = await getJson(t, "/api/movies/550");
  assert.equal(res.status, 503);
  assert.equal(res.body.code, "upstream_busy");
  assert.equal(res.headers.get("retry-after"), "1");
  assert.equal(res.headers.get("x-ratelimit-limit"), "40");
  assert.equal(fake.requests.length, 3);
});

Deno.test("a body that is not the expected shape is 502 upstream_bad_response", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  for (
    const bad of [
      () => Response.json({ page: 1, results: [{ id: "550", title: 5 }] }),
      () => Response.json({ unexpected: true }),
      () => new Response("<html>maintenance</html>", { status: 200 }),
    ]
  ) {
    fake.override = bad;
    const res = await getJson(t, "/api/movies/search?q=dune");
    assert.equal(res.status, 502);
    assert.equal(res.body.code, "upstream_bad_response");
  }
  fake.override = () => Response.json({ id: 550, title: "No credits appended" });
  const detail = await getJson(t, "/api/movies/550");
  assert.equal(detail.status, 502);
  assert.equal(detail.body.code, "upstream_bad_response");
});

Deno.test("missing credentials are 500 catalog_not_configured, before any request", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: { TMDB_BASE_URL: fake.baseUrl } });
  for (const path of ["/api/movies/search?q=dune", "/api/movies/550", "/api/movies/popular"]) {
    const res = await getJson(t, path);
    assert.equal(res.status, 500, path);
    assert.equal(res.body.code, "catalog_not_configured", path);
  }
  assert.equal(fake.requests.length, 0);
});

Deno.test("an upstream outage, error status or timeout is 500 upstream_error; the key is never logged", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  fake.override = () => Response.json({ status_code: 46 }, { status: 503 });
  const unavailable = await getJson(t, "/api/movies/search?q=dune");
  assert.equal(unavailable.status, 500);
  assert.equal(unavailable.body.code, "upstream_error");
  fake.override = () => Response.json(TMDB_NOT_FOUND, { status: 404 });
  assert.equal((await getJson(t, "/api/movies/search?q=dune")).body.code, "upstream_error");

  await using down = await testApp({
    env: { ...tmdbEnv(fake), TMDB_BASE_URL: "http://127.0.0.1:9/3" },
  });
  const refused = await getJson(down, "/api/movies/search?q=dune");
  assert.equal(refused.status, 500);
  assert.equal(refused.body.code, "upstream_error");
  assert.ok(!JSON.stringify(refused.body).includes("test-api-key"));
  assert.ok(down.logs.some((l) => l.code === "upstream_error"));
  assert.ok(!JSON.stringify(down.logs).includes("test-api-key"));

  fake.override = undefined;
  fake.latencyMs = 300;
  const catalog = createCatalogService(t.deps, { timeoutMs: 50 });
  await assert.rejects(
    catalog.search("dune", { wait: false }),
    (e) => e instanceof Problem && e.status === 500 && e.code === "upstream_error",
  );
});

Deno.test("a v3 key goes as api_key, a v4 token as Authorization: Bearer", async () => {
  await using fake = await startFakeTmdb();
  {
    await using t = await testApp({ env: tmdbEnv(fake) });
    assert.equal((await t.request("/api/movies/search?q=dune")).status, 200);
    assert.equal(fake.requests[0].query.get("api_key"), "test-api-key");
    assert.equal(fake.requests[0].authorization, null);
  }
  {
    // With both configured the token (TMDB's default method) is used, and the key never sent.
    await using t = await testApp({
      env: { ...tmdbEnv(fake, { bearer: true }), TMDB_API_KEY: "test-api-key" },
    });
    assert.equal((await t.request("/api/movies/search?q=dune")).status, 200);
    assert.equal(fake.requests[1].authorization, "Bearer test-read-access-token");
    assert.equal(fake.requests[1].query.has("api_key"), false);
  }
});

Deno.test("a path outside the three allowed calls is refused before any request", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  const window = createExternalWindow(t.deps.kv, { clock: t.deps.clock });
  const client = createTmdbClient(t.deps, { window });
  for (
    const [path, params] of [
      ["/genre/movie/list", {}],
      ["/movie/550/credits", {}],
      ["/movie/latest", {}],
      ["/movie/0", {}],
      ["/search/tv", { query: "x" }],
      ["/movie/popular/../../account", {}],
      ["/movie/popular", { page: "1", with_genres: "28" }],
      ["/movie/550", { append_to_response: "credits", api_key: "x" }],
    ] as [string, Record<string, string>][]
  ) {
    await assert.rejects(
      client.request(path, params, { schema: tmdbList, wait: false }),
      RefusedPathError,
      path,
    );
  }
  assert.equal(fake.requests.length, 0);
  assert.equal(
    await window.taken(t.deps.clock.now()),
    0,
    "a refused call takes no place in the window",
  );
  assert.equal(
    tmdbUrl("https://api.example/3/", "/movie/popular", { page: "2" }).href,
    "https://api.example/3/movie/popular?page=2",
  );
});
