/**
 * Typographic quotes and dashes (docs/catalog.md, "Matching a title"): a title written with ’ or –
 * is searched as TMDB writes it (' and -), so it finds and matches the movie, as the comparison
 * key already treats both forms alike.
 */
import assert from "node:assert/strict";
import { foldTypography, titleKey } from "@/lib/catalog/title_match.ts";
import { uniqueSearchMatch } from "@/lib/catalog/unique_match.ts";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";

const DONT = {
  id: 646380,
  title: "Don't Look Up",
  original_title: "Don't Look Up",
  poster_path: "/th4E1yqsE8DGpAseLiUrI60Hf8V.jpg",
  release_date: "2021-12-07",
  vote_average: 7.2,
  genre_ids: [878, 35, 18],
  adult: false,
  overview: "",
  popularity: 50,
  video: false,
  vote_count: 9000,
  original_language: "en",
  backdrop_path: null,
};

Deno.test("foldTypography turns typographic quotes and dashes into their ASCII forms and leaves the rest", () => {
  assert.equal(foldTypography("Don’t Look Up"), "Don't Look Up");
  assert.equal(foldTypography("‘Salem’s Lot"), "'Salem's Lot");
  assert.equal(foldTypography("“Wonderful” Life"), '"Wonderful" Life');
  assert.equal(
    foldTypography("Mission: Impossible – Dead Reckoning — Part One"),
    "Mission: Impossible - Dead Reckoning - Part One",
  );
  assert.equal(foldTypography("Spider‐Man − Far‑From‒Home―"), "Spider-Man - Far-From-Home-");
  // Letters, accents, other scripts and plain ASCII stay as they are.
  for (const same of ["Amélie", "Léon: The Professional", "千と千尋の神隠し", "Don't", "8½"]) {
    assert.equal(foldTypography(same), same);
  }
  // The comparison key was already blind to the difference.
  assert.equal(
    titleKey("Don’t Look Up — “Extended”"),
    titleKey(foldTypography("Don’t Look Up — “Extended”")),
  );
});

Deno.test("a title with a curly apostrophe is searched in its straight form, found and matched uniquely", async () => {
  await using tmdb = await startFakeTmdb();
  // As TMDB: the rows whose title holds the query's characters.
  tmdb.search = (query) => {
    const q = (query.get("query") ?? "").toLowerCase();
    const results = DONT.title.toLowerCase().includes(q) ? [DONT] : [];
    return { page: 1, results, total_pages: 1, total_results: results.length };
  };
  await using t = await testApp({ env: tmdbEnv(tmdb) });

  const res = await t.request(`/api/movies/search?q=${encodeURIComponent("Don’t Look Up")}`);
  assert.equal(res.status, 200);
  assert.deepEqual((await res.json()).results.map((r: { id: number }) => r.id), [DONT.id]);
  const asked = tmdb.requests.filter((r) => r.path === "/search/movie").map((r) =>
    r.query.get("query")
  );
  assert.deepEqual(asked, ["Don't Look Up"]);

  // The history import's and the webhooks' matching: the search's unique match of the title.
  const match = await uniqueSearchMatch(
    { title: "Don’t Look Up", year: 2021 },
    async (title, year) =>
      (await t.services.catalog.search(title, { year, wait: true })).value.results,
  );
  assert.deepEqual("id" in match ? match.id : match, DONT.id);
});
