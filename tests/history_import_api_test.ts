import assert from "node:assert/strict";
import { strToU8, zipSync } from "fflate";
import { historyWorld } from "./helpers/history_import_world.ts";
import { bytesOf, jsonBytes, letterboxdZip, traktFiles } from "./helpers/history_files.ts";
import { imdbRatingsCsv } from "./helpers/history_files_imdb.ts";
import { problem } from "./helpers/problems.ts";
import { createUser } from "./helpers/users.ts";
import { ENGINES } from "./helpers/store.ts";

const REVIEW = 'Not for me, "whimsy" overload.\nSecond line.';

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a Letterboxd export ZIP fills the lists: the latest diary date, the latest rating doubled, the review as note, the watchlist to My List, the unmatched reported`, async () => {
    await using w = await historyWorld({ engine });
    const run = await w.importFile(letterboxdZip());
    assert.equal(run.status, "succeeded");
    assert.equal(run.format, "letterboxd");
    assert.equal(run.progress, 1);
    assert.deepEqual(run.counts, {
      rows: 12,
      matched: 11,
      added: 4,
      updated: 0,
      skipped: 1,
      unmatched: 1,
    });
    assert.deepEqual(run.unmatched, [{ title: "Unknown Film", year: null, reason: "not_found" }]);
    assert.deepEqual(await w.lists(), {
      watched: [
        // The latest diary (or review) date; watched.csv's Date is only the day logged.
        { catalog_id: 146, rating: 6, watched_on: "2024-02-09", note: null },
        { catalog_id: 194, rating: 1, watched_on: "2024-02-28", note: REVIEW },
        { catalog_id: 550, rating: 10, watched_on: "2024-06-19", note: null },
      ],
      myList: [129],
    });
    // The cards hydrate from the search rows the matches came from.
    const cards = await (await w.t.request("/api/mylist", { headers: w.user.headers })).json();
    assert.equal(cards.movies[0].title, "Spirited Away");
  });

  Deno.test(`[${engine}] importing the same file twice changes nothing the second time`, async () => {
    await using w = await historyWorld({ engine });
    await w.importFile(letterboxdZip());
    const before = await w.lists();
    const again = await w.importFile(letterboxdZip());
    assert.equal(again.status, "succeeded");
    assert.deepEqual(again.counts, {
      rows: 12,
      matched: 11,
      added: 0,
      updated: 0,
      skipped: 1,
      unmatched: 1,
    });
    assert.deepEqual(await w.lists(), before);
  });
}

Deno.test("a Trakt export sent as multipart field `file` matches by TMDB id without one search; episodes skipped", async () => {
  await using w = await historyWorld();
  const files = traktFiles();
  const all = [
    ...files["watched-movies.json"],
    ...files["history.json"],
    ...files["ratings-movies.json"],
    ...files["watchlist-movies.json"],
  ];
  const res = await w.upload(jsonBytes(all), { multipart: true });
  assert.equal(res.status, 202);
  const started = await res.json();
  assert.deepEqual(Object.keys(started).sort(), ["importId", "status"]);
  assert.equal(started.status, "running");
  await w.t.services.historyImport.idle();
  const run =
    await (await w.t.request(`/api/import/${started.importId}`, { headers: w.user.headers }))
      .json();
  assert.equal(run.format, "trakt");
  assert.equal(w.searches(), 0);
  assert.equal(run.counts.skipped, 1);
  assert.equal(run.counts.unmatched, 0);
  const lists = await w.lists();
  assert.deepEqual(lists.watched.map((e) => [e.catalog_id, e.rating, e.watched_on]), [
    [194, null, "2024-02-09"],
    [550, 9, "2024-06-19"],
  ]);
  assert.deepEqual(lists.myList, [129]);
});

Deno.test("an IMDb ratings CSV skips the series and the episode and reports the row it cannot find", async () => {
  await using w = await historyWorld();
  const run = await w.importFile(bytesOf(imdbRatingsCsv()));
  assert.equal(run.format, "imdb");
  assert.deepEqual(run.counts, {
    rows: 5,
    matched: 2,
    added: 2,
    updated: 0,
    skipped: 2,
    unmatched: 1,
  });
  assert.deepEqual(run.unmatched, [{ title: "Lost Reel, The", year: null, reason: "not_found" }]);
  const lists = await w.lists();
  assert.deepEqual(lists.watched.map((e) => [e.catalog_id, e.rating, e.watched_on]), [
    [194, 7, "2023-05-04"],
    [550, 9, "2023-05-01"],
  ]);
});

Deno.test("POST /api/import: unknown format, corrupt ZIP and zip bomb are 400 with their codes; nothing is recorded", async () => {
  await using w = await historyWorld();
  await problem(await w.upload("just some text\n"), 400, "unknown_format");
  await problem(await w.upload(jsonBytes({ movies: [] })), 400, "unknown_format");
  const zip = letterboxdZip();
  await problem(await w.upload(zip.slice(0, zip.length - 22)), 400, "invalid_file");
  const bomb = zipSync({ "diary.csv": new Uint8Array(80 * 1024 * 1024).fill(0x30) }, { level: 9 });
  await problem(await w.upload(bomb, { multipart: true }), 400, "invalid_file");
  await problem(await w.upload(new Uint8Array()), 400, "invalid_body");
  const form = new FormData();
  form.set("other", new Blob([strToU8("x")]));
  await problem(
    await w.t.request("/api/import", { method: "POST", headers: w.user.headers, body: form }),
    400,
    "invalid_body",
  );
  const list = await (await w.t.request("/api/import", { headers: w.user.headers })).json();
  assert.deepEqual(list, { imports: [] });
});

Deno.test("the import routes need a signed-in user; a run is its owner's alone (404 for anyone else)", async () => {
  await using w = await historyWorld();
  await problem(
    await w.t.request("/api/import", { method: "POST", body: "x" }),
    401,
    "unauthorized",
  );
  await problem(await w.t.request("/api/import"), 401, "unauthorized");
  const run = await w.importFile(letterboxdZip());
  const other = await createUser(w.t.deps);
  await problem(
    await w.t.request(`/api/import/${run.id}`, { headers: other.headers }),
    404,
    "not_found",
  );
  await problem(
    await w.t.request(`/api/import/not-a-uuid`, { headers: w.user.headers }),
    404,
    "not_found",
  );
  assert.deepEqual(
    await (await w.t.request("/api/import", { headers: other.headers })).json(),
    { imports: [] },
  );
});

Deno.test("GET /api/import lists the user's runs newest first, with the fields of GET /api/import/:id", async () => {
  await using w = await historyWorld();
  const first = await w.importFile(letterboxdZip());
  w.t.clock.advance(60_000);
  const second = await w.importFile(bytesOf(imdbRatingsCsv()));
  const { imports } = await (await w.t.request("/api/import", { headers: w.user.headers })).json();
  assert.deepEqual(imports.map((r: { id: string }) => r.id), [second.id, first.id]);
  assert.deepEqual(imports[0], second);
  assert.deepEqual(Object.keys(second).sort(), [
    "counts",
    "films",
    "finishedAt",
    "format",
    "id",
    "progress",
    "startedAt",
    "status",
    "unmatched",
  ]);
});

Deno.test("a second import while one runs is 409 import_running; another user may import meanwhile", async () => {
  await using w = await historyWorld();
  const gate = Promise.withResolvers<void>();
  w.fake.override = async (req) => {
    if (req.path === "/search/movie") await gate.promise;
    return undefined;
  };
  const first = await w.upload(letterboxdZip());
  assert.equal(first.status, 202);
  await problem(await w.upload(bytesOf(imdbRatingsCsv())), 409, "import_running");
  const other = await createUser(w.t.deps);
  assert.equal(
    (await w.upload(jsonBytes(traktFiles()["watched-movies.json"]), { user: other })).status,
    202,
  );
  gate.resolve();
});

Deno.test("movies a Trakt export names by id that the store lacks have their details fetched after the run", async () => {
  await using w = await historyWorld();
  // One of the three is in the store already: only the other two are asked for.
  await w.t.store.query(
    `insert into public.movies (catalog_id, title, original_title, year, has_details)
     values (194, 'Amélie', 'Le Fabuleux Destin d''Amélie Poulain', 2001, true)`,
  );
  const files = traktFiles();
  const run = await w.importFile(
    jsonBytes([...files["watched-movies.json"], ...files["watchlist-movies.json"]]),
  );
  assert.equal(run.status, "succeeded");
  await w.t.services.historyImport.idle();
  const asked = w.fake.requests.map((r) => r.path).filter((p) => /^\/movie\/\d+$/.test(p)).sort();
  assert.deepEqual(asked, ["/movie/129", "/movie/550"]);
});
