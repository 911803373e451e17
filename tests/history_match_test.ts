import assert from "node:assert/strict";
import { bytesOf, csvText } from "./helpers/history_files.ts";
import { historyWorld } from "./helpers/history_import_world.ts";

const IMDB_HEADER = ["Const", "Your Rating", "Date Rated", "Title", "Title Type", "Year"];

function imdb(rows: [string, number | ""][]): string {
  return csvText(
    IMDB_HEADER,
    rows.map(([title, year], i) => [`tt${i}`, 8, "2023-01-01", title, "Movie", year]),
  );
}

Deno.test("matching: title + year found in the movies store needs no search", async () => {
  await using w = await historyWorld();
  await w.t.store.query(
    `insert into public.movies (catalog_id, title, original_title, year) values
       (424242, 'Le Samouraï', 'Le Samouraï', 1967), (424243, 'Le Samouraï', 'Le Samouraï', 1990)`,
  );
  const run = await w.importFile(bytesOf(imdb([["le samourai", 1967]])));
  assert.equal(run.counts.matched, 1);
  assert.equal(w.searches(), 0);
  assert.deepEqual((await w.lists()).watched.map((e) => e.catalog_id), [424242]);
});

Deno.test("matching: the search with the year picks the year's film among remakes", async () => {
  await using w = await historyWorld();
  const run = await w.importFile(bytesOf(imdb([["Heat", 1995]])));
  assert.equal(run.counts.matched, 1);
  assert.deepEqual((await w.lists()).watched.map((e) => e.catalog_id), [949]);
  const years = w.fake.requests.map((r) => r.query.get("year"));
  assert.deepEqual(years, ["1995"]);
  assert.equal(w.fake.requests[0].query.get("include_adult"), "false");
});

Deno.test("matching: nothing in the year, then a year either side finds it", async () => {
  await using w = await historyWorld();
  const run = await w.importFile(bytesOf(imdb([["Late Release", 2015]])));
  assert.equal(run.counts.matched, 1);
  assert.deepEqual((await w.lists()).watched.map((e) => e.catalog_id), [7100]);
  assert.deepEqual(w.fake.requests.map((r) => r.query.get("year")).sort(), [
    "2014",
    "2015",
    "2016",
  ]);
});

Deno.test("matching: two films of one title and year, or a title without a year naming two films, are ambiguous; a title nobody has is not_found", async () => {
  await using w = await historyWorld();
  const run = await w.importFile(
    bytesOf(imdb([["Twin Film", 2010], ["Heat", ""], ["No Such Film", 1980]])),
  );
  assert.equal(run.counts.matched, 0);
  assert.equal(run.counts.unmatched, 3);
  assert.deepEqual(run.unmatched, [
    { title: "Twin Film", year: 2010, reason: "ambiguous" },
    { title: "Heat", year: null, reason: "ambiguous" },
    { title: "No Such Film", year: 1980, reason: "not_found" },
  ]);
  assert.deepEqual((await w.lists()).watched, []);
  // Only the three allowed paths ever left the service: here only the search.
  assert.ok(w.fake.requests.every((r) => r.path === "/search/movie"));
});

Deno.test("matching: a TMDB id from the file is used as it is, and a movie the store lacks gets its details fetched", async () => {
  await using w = await historyWorld();
  const header = ["tmdbID", "Title", "Year", "Rating10", "WatchedDate", "Review"];
  const run = await w.importFile(
    bytesOf(csvText(header, [[550, "Whatever it is called", 1999, 7, "2024-01-01", ""]])),
  );
  assert.equal(run.counts.matched, 1);
  assert.equal(w.searches(), 0);
  assert.deepEqual(w.fake.requests.map((r) => r.path), ["/movie/550"]);
  const cards = await (await w.t.request("/api/watched", { headers: w.user.headers })).json();
  assert.equal(cards.movies[0].title, "Fight Club");
});
