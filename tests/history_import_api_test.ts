import assert from "node:assert/strict";
import { strToU8, zipSync } from "fflate";
import type { FakeClock } from "../lib/clock.ts";
import { historyWorld } from "./helpers/import_world.ts";
import {
  bytesOf,
  imdbRatingsCsv,
  jsonBytes,
  letterboxdZip,
  traktFiles,
} from "./helpers/history_files.ts";
import { createUser } from "./helpers/users.ts";
import { ENGINES } from "./helpers/store.ts";

async function assertProblem(res: Response, status: number, code: string) {
  assert.equal(res.status, status);
  assert.match(res.headers.get("content-type") ?? "", /^application\/problem\+json/);
  assert.equal((await res.json()).code, code);
}

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
        { catalog_id: 146, rating: 6, watched_on: "2024-02-10", note: null },
        { catalog_id: 194, rating: 1, watched_on: "2024-03-01", note: REVIEW },
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

Deno.test("POST /api/import refuses a file over 20 MiB with 413 file_too_large, raw or multipart; 20 MiB exactly is read", async () => {
  await using w = await historyWorld();
  const limit = 20 * 1024 * 1024;
  await assertProblem(await w.upload(new Uint8Array(limit + 1).fill(0x61)), 413, "file_too_large");
  await assertProblem(
    await w.upload(new Uint8Array(limit + 1).fill(0x61), { multipart: true }),
    413,
    "file_too_large",
  );
  // At the limit the file is read: it is just not a format the import knows.
  await assertProblem(await w.upload(new Uint8Array(limit).fill(0x61)), 400, "unknown_format");
  await assertProblem(
    await w.upload(new Uint8Array(limit).fill(0x61), { multipart: true }),
    400,
    "unknown_format",
  );
});

/** An IMDb ratings export of exactly `size` bytes: one movie among TV episodes (skipped). */
function imdbExportOfSize(size: number): Uint8Array {
  const header = "Const,Your Rating,Date Rated,Title,URL,Title Type,Year\r\n";
  const movie =
    "tt0137523,9,2023-05-01,Fight Club,https://www.imdb.com/title/tt0137523/,Movie,1999\r\n";
  const episode = (i: number) =>
    `tt${String(i).padStart(8, "0")},7,2023-05-02,Episode ${i},` +
    `https://www.imdb.com/title/tt${String(i).padStart(8, "0")}/,TV Episode,2010\r\n`;
  const parts = [header, movie];
  let length = header.length + movie.length;
  for (let i = 1; length + episode(i).length + 120 < size; i++) {
    parts.push(episode(i));
    length += episode(i).length;
  }
  // The last episode's title pads the file to the byte.
  const last = `tt99999999,7,2023-05-02,Episode ,,TV Episode,2010\r\n`;
  parts.push(last.replace("Episode ", "Episode " + "x".repeat(size - length - last.length)));
  const bytes = new TextEncoder().encode(parts.join(""));
  assert.equal(bytes.length, size);
  return bytes;
}

Deno.test("an IMDb export of exactly 20 MiB imports; the same export one byte larger is 413", async () => {
  await using w = await historyWorld();
  const limit = 20 * 1024 * 1024;
  const file = imdbExportOfSize(limit);
  const run = await w.importFile(file);
  assert.equal(run.status, "succeeded");
  assert.equal(run.format, "imdb");
  assert.equal(run.counts.matched, 1);
  assert.equal(run.counts.skipped, run.counts.rows - 1);
  assert.ok(run.counts.rows > 150_000, String(run.counts.rows));
  const bigger = imdbExportOfSize(limit + 1);
  await assertProblem(await w.upload(bigger), 413, "file_too_large");
  await assertProblem(await w.upload(bigger, { multipart: true }), 413, "file_too_large");
});

Deno.test("POST /api/import: unknown format, corrupt ZIP and zip bomb are 400 with their codes; nothing is recorded", async () => {
  await using w = await historyWorld();
  await assertProblem(await w.upload("just some text\n"), 400, "unknown_format");
  await assertProblem(await w.upload(jsonBytes({ movies: [] })), 400, "unknown_format");
  const zip = letterboxdZip();
  await assertProblem(await w.upload(zip.slice(0, zip.length - 22)), 400, "invalid_file");
  const bomb = zipSync({ "diary.csv": new Uint8Array(80 * 1024 * 1024).fill(0x30) }, { level: 9 });
  await assertProblem(await w.upload(bomb, { multipart: true }), 400, "invalid_file");
  await assertProblem(await w.upload(new Uint8Array()), 400, "invalid_body");
  const form = new FormData();
  form.set("other", new Blob([strToU8("x")]));
  await assertProblem(
    await w.t.request("/api/import", { method: "POST", headers: w.user.headers, body: form }),
    400,
    "invalid_body",
  );
  const list = await (await w.t.request("/api/import", { headers: w.user.headers })).json();
  assert.deepEqual(list, { imports: [] });
});

Deno.test("the import routes need a signed-in user; a run is its owner's alone (404 for anyone else)", async () => {
  await using w = await historyWorld();
  await assertProblem(
    await w.t.request("/api/import", { method: "POST", body: "x" }),
    401,
    "unauthorized",
  );
  await assertProblem(await w.t.request("/api/import"), 401, "unauthorized");
  const run = await w.importFile(letterboxdZip());
  const other = await createUser(w.t.deps);
  await assertProblem(
    await w.t.request(`/api/import/${run.id}`, { headers: other.headers }),
    404,
    "not_found",
  );
  await assertProblem(
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
  (w.t.clock as FakeClock).advance(60_000);
  const second = await w.importFile(bytesOf(imdbRatingsCsv()));
  const { imports } = await (await w.t.request("/api/import", { headers: w.user.headers })).json();
  assert.deepEqual(imports.map((r: { id: string }) => r.id), [second.id, first.id]);
  assert.deepEqual(imports[0], second);
  assert.deepEqual(Object.keys(second).sort(), [
    "counts",
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
  await assertProblem(await w.upload(bytesOf(imdbRatingsCsv())), 409, "import_running");
  const other = await createUser(w.t.deps);
  assert.equal(
    (await w.upload(jsonBytes(traktFiles()["watched-movies.json"]), { user: other })).status,
    202,
  );
  gate.resolve();
});
