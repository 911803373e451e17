/** GET /api/movies/search: the rows it keeps and their fields, what it passes on, a bad query. */
import assert from "node:assert/strict";
import { getJson, testApp } from "./helpers/app.ts";
import { searchBody, startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";

const SEARCH_ROW_KEYS = [
  "genre_ids",
  "id",
  "original_title",
  "poster_path",
  "release_date",
  "title",
  "vote_average",
];

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
