import assert from "node:assert/strict";
import { strToU8, zipSync } from "fflate";
import { Problem } from "../lib/core/problem.ts";
import { parseHistoryFile } from "../lib/library/history/import/parse.ts";
import { toDate } from "../lib/library/history/import/rows.ts";
import {
  bytesOf,
  csvText,
  jsonBytes,
  letterboxdCsvs,
  letterboxdZip,
  traktFiles,
} from "./helpers/history_files.ts";
import { imdbRatingsCsv, imdbWatchlistCsv } from "./helpers/history_files_imdb.ts";

async function assertProblem(fn: () => Promise<unknown>, code: string) {
  await assert.rejects(
    fn,
    (error) => error instanceof Problem && error.status === 400 && error.code === code,
  );
}

Deno.test("a Letterboxd export ZIP gives every CSV's rows: doubled ratings, diary watch dates, the review, quoted titles, unicode, a missing year; extra files ignored", async () => {
  const parsed = await parseHistoryFile(letterboxdZip());
  assert.equal(parsed.format, "letterboxd");
  assert.equal(parsed.skipped, 0);
  const byKind = (kind: string) => parsed.rows.filter((r) => r.kind === kind);
  assert.equal(byKind("watched").length, 4);
  assert.deepEqual(byKind("diary").map((r) => [r.title, r.date, r.rating]), [
    ["Fight Club", "2024-01-04", 9],
    ["Fight Club", "2024-06-19", 10],
    ['Crouching Tiger, Hidden "Dragon"', "2024-02-09", 6],
  ]);
  assert.deepEqual(byKind("rating").map((r) => r.rating), [10, 1]);
  assert.deepEqual(byKind("watchlist").map((r) => r.title), ["千と千尋の神隠し", "Fight Club"]);
  const [review] = byKind("review");
  assert.equal(review.review, 'Not for me, "whimsy" overload.\nSecond line.');
  assert.equal(review.date, "2024-02-28");
  const unknown = parsed.rows.find((r) => r.title === "Unknown Film")!;
  assert.equal(unknown.year, undefined);
  // likes/ and deleted/ are not the history.
  assert.ok(!parsed.rows.some((r) => r.title === "Heat"));
});

Deno.test("each Letterboxd CSV alone is told from its header, whatever it is called", async () => {
  const csvs = letterboxdCsvs();
  const kinds: Record<string, string> = {};
  for (const [name, text] of Object.entries(csvs)) {
    kinds[name] = (await parseHistoryFile(bytesOf(text))).rows[0].kind;
  }
  // watchlist.csv has watched.csv's four columns: alone it cannot be told apart, so it is watched.
  assert.deepEqual(kinds, {
    "watched.csv": "watched",
    "diary.csv": "diary",
    "ratings.csv": "rating",
    "watchlist.csv": "watched",
    "reviews.csv": "review",
  });
  const diary = await parseHistoryFile(bytesOf(csvs["diary.csv"]));
  assert.equal(diary.format, "letterboxd");
  assert.equal(diary.rows[0].title, "Fight Club"); // the BOM is not part of the first column's name
});

Deno.test("an IMDb ratings CSV (BOM, CRLF) keeps movies with their 1-10 rating and skips the series and the episode", async () => {
  const parsed = await parseHistoryFile(bytesOf(imdbRatingsCsv()));
  assert.equal(parsed.format, "imdb");
  assert.equal(parsed.skipped, 2);
  assert.deepEqual(parsed.rows.map((r) => [r.kind, r.title, r.year, r.rating, r.date]), [
    ["rating", "Fight Club", 1999, 9, "2023-05-01"],
    ["rating", "Amélie", 2001, 7, "2023-05-04"],
    ["rating", "Lost Reel, The", undefined, 6, "2023-05-05"],
  ]);
});

Deno.test("an IMDb list export is the watchlist; a rated entry in it counts as watched", async () => {
  const parsed = await parseHistoryFile(bytesOf(imdbWatchlistCsv()));
  assert.equal(parsed.format, "imdb");
  assert.equal(parsed.skipped, 1);
  assert.deepEqual(parsed.rows.map((r) => [r.kind, r.title, r.rating]), [
    ["watchlist", "Spirited Away", undefined],
    ["rating", "Fight Club", 9],
  ]);
});

Deno.test("Trakt JSON exports give movie rows with their TMDB ids; episodes are skipped", async () => {
  const files = traktFiles();
  const kinds = await Promise.all(
    Object.entries(files).map(async ([name, json]) => {
      const parsed = await parseHistoryFile(jsonBytes(json));
      assert.equal(parsed.format, "trakt", name);
      return [name, parsed.rows.map((r) => [r.kind, r.tmdbId, r.date, r.rating]), parsed.skipped];
    }),
  );
  assert.deepEqual(kinds, [
    ["watched-movies.json", [["watched", 550, "2024-06-19", undefined], [
      "watched",
      194,
      "2024-02-09",
      undefined,
    ]], 0],
    ["history.json", [["diary", 550, "2024-01-04", undefined]], 1],
    ["ratings-movies.json", [["rating", 550, "2024-06-20", 9]], 0],
    ["watchlist-movies.json", [["watchlist", 129, "2024-04-01", undefined]], 0],
  ]);
  const zipped = zipSync(
    Object.fromEntries(Object.entries(files).map(([n, j]) => [n, strToU8(JSON.stringify(j))])),
  );
  const fromZip = await parseHistoryFile(zipped);
  assert.equal(fromZip.format, "trakt");
  assert.equal(fromZip.rows.length, 5);
  assert.equal(fromZip.skipped, 1);
});

Deno.test("this service's exports read back: the JSON, and the CSV as watched or as My List", async () => {
  const json = await parseHistoryFile(jsonBytes({
    exportedAt: "2024-01-01T00:00:00.000Z",
    watched: [{
      catalogId: 550,
      title: "Fight Club",
      year: 1999,
      rating: 8,
      watchedOn: "2024-01-02",
      note: "Great",
      addedAt: "x",
    }],
    myList: [{ catalogId: 129, title: "Spirited Away", year: 2001 }],
  }));
  assert.equal(json.format, "service");
  assert.deepEqual(json.rows, [
    {
      kind: "watched",
      tmdbId: 550,
      title: "Fight Club",
      year: 1999,
      date: "2024-01-02",
      rating: 8,
      review: "Great",
    },
    { kind: "watchlist", tmdbId: 129, title: "Spirited Away", year: 2001 },
  ]);
  const header = ["tmdbID", "Title", "Year", "Rating10", "WatchedDate", "Review"];
  const watched = await parseHistoryFile(bytesOf(csvText(header, [
    [550, "Fight Club", 1999, 8, "2024-01-02", 'He said "hi", twice'],
    [680, "Pulp Fiction", 1994, "", "", ""],
  ])));
  assert.equal(watched.format, "letterboxd");
  assert.deepEqual(watched.rows.map((r) => [r.kind, r.tmdbId, r.review]), [
    ["watched", 550, 'He said "hi", twice'],
    ["watched", 680, undefined],
  ]);
  const myList = await parseHistoryFile(
    bytesOf(csvText(header, [[129, "Spirited Away", 2001, "", "", ""]])),
  );
  assert.deepEqual(myList.rows.map((r) => r.kind), ["watchlist"]);
});

Deno.test("anything else is 400 unknown_format: other CSVs, other JSON, binary, a ZIP without an export", async () => {
  await assertProblem(() => parseHistoryFile(bytesOf("a,b,c\n1,2,3\n")), "unknown_format");
  await assertProblem(() => parseHistoryFile(jsonBytes({ hello: "world" })), "unknown_format");
  await assertProblem(() => parseHistoryFile(jsonBytes([1, 2, 3])), "unknown_format");
  await assertProblem(() => parseHistoryFile(bytesOf("{not json")), "unknown_format");
  await assertProblem(
    () => parseHistoryFile(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 1])),
    "unknown_format",
  );
  await assertProblem(() => parseHistoryFile(new Uint8Array()), "unknown_format");
  await assertProblem(
    () => parseHistoryFile(zipSync({ "notes.txt": strToU8("hi") })),
    "unknown_format",
  );
});

Deno.test("a corrupt ZIP, a Letterboxd CSV with an unclosed quote and a zip bomb are 400 invalid_file", async () => {
  const zip = letterboxdZip();
  await assertProblem(() => parseHistoryFile(zip.slice(0, zip.length - 30)), "invalid_file");
  // The deflate stream of the only entry overwritten: block type 3 does not exist.
  const broken = zipSync({ "watched.csv": strToU8(letterboxdCsvs()["watched.csv"]) });
  broken.fill(0xff, 30 + "watched.csv".length, 60);
  await assertProblem(() => parseHistoryFile(broken), "invalid_file");
  await assertProblem(
    () => parseHistoryFile(bytesOf('Date,Name,Year,Letterboxd URI\n2024-01-01,"Heat,1995,x\n')),
    "invalid_file",
  );
  // 65 MiB of one character packs into a few dozen KiB; the limit is read before inflating.
  const bomb = zipSync({ "watched.csv": new Uint8Array(65 * 1024 * 1024).fill(0x61) }, {
    level: 9,
  });
  assert.ok(bomb.length < 200_000);
  await assertProblem(() => parseHistoryFile(bomb), "invalid_file");
});

Deno.test("ZIP limits hold at their edge: entry count and unpacked size", async () => {
  const files: Record<string, Uint8Array> = {
    "watched.csv": strToU8(letterboxdCsvs()["watched.csv"]),
  };
  for (let i = 0; i < 9; i++) files[`lists/list-${i}.csv`] = strToU8("x");
  const zip = zipSync(files);
  assert.equal((await parseHistoryFile(zip, { zip: { maxEntries: 10 } })).rows.length, 4);
  await assertProblem(() => parseHistoryFile(zip, { zip: { maxEntries: 9 } }), "invalid_file");
  const size = files["watched.csv"].length + 9;
  assert.equal((await parseHistoryFile(zip, { zip: { maxUnzippedBytes: size } })).rows.length, 4);
  await assertProblem(
    () => parseHistoryFile(zip, { zip: { maxUnzippedBytes: size - 1 } }),
    "invalid_file",
  );
});

Deno.test("dates: real days from 1874, timestamps to their UTC day, anything else dropped", () => {
  assert.equal(toDate("2024-02-29"), "2024-02-29");
  assert.equal(toDate("2023-02-29"), undefined);
  assert.equal(toDate("1873-12-31"), undefined);
  assert.equal(toDate("2024-06-19T23:30:00.000-02:00"), "2024-06-20");
  assert.equal(toDate("19/06/2024"), undefined);
  assert.equal(toDate(""), undefined);
});
