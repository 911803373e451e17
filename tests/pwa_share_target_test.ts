/**
 * The share target (docs/website.md, "Installable app"): a link or text shared from another
 * app opens the movie or a search for it.
 */
import assert from "node:assert/strict";
import { shareDestination, shareTarget } from "../lib/web/pwa/movie_link.ts";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";

Deno.test("a shared TMDB movie link opens that movie", () => {
  assert.equal(
    shareDestination({ url: "https://www.themoviedb.org/movie/603-the-matrix?language=en" }),
    "/movies/603",
  );
  assert.equal(
    shareDestination({ text: "Look at this https://themoviedb.org/movie/550" }),
    "/movies/550",
  );
});

Deno.test("a shared Letterboxd film link searches for the title of its slug", () => {
  assert.equal(
    shareDestination({ url: "https://letterboxd.com/film/the-grand-budapest-hotel/" }),
    "/search?q=the%20grand%20budapest%20hotel",
  );
  // A slug that carries the year to tell remakes apart loses it.
  assert.equal(
    shareDestination({ text: "https://letterboxd.com/film/dune-2021/" }),
    "/search?q=dune",
  );
});

Deno.test("a shared IMDb link or plain text opens search with the words", () => {
  assert.equal(
    shareDestination({
      title: "Heat (1995) - IMDb",
      url: "https://www.imdb.com/title/tt0113277/",
    }),
    "/search?q=Heat",
  );
  assert.equal(shareDestination({ text: "Perfect Days" }), "/search?q=Perfect%20Days");
  assert.equal(shareDestination({}), "/search");
  // A TMDB TV link is not a movie: its words are searched instead.
  assert.equal(
    shareDestination({ title: "Severance", url: "https://www.themoviedb.org/tv/95396" }),
    "/search?q=Severance",
  );
});

Deno.test("GET /share redirects to where the shared link leads", async () => {
  await using app = await testApp();
  const movie = await app.request("/share?url=https%3A%2F%2Fwww.themoviedb.org%2Fmovie%2F603");
  assert.equal(movie.status, 303);
  assert.equal(movie.headers.get("location"), "/movies/603");
  const text = await app.request("/share?title=x&text=Paris%2C%20Texas");
  assert.equal(text.status, 303);
  assert.equal(text.headers.get("location"), "/search?q=Paris%2C%20Texas");
  const nothing = await app.request("/share");
  assert.equal(nothing.headers.get("location"), "/search");
});

Deno.test('Letterboxd\'s shared text names the film and its year, without "on Letterboxd"', () => {
  const shared = { text: "Quiet Harbor (2019) on Letterboxd https://boxd.it/abcd" };
  assert.equal(shareDestination(shared), "/search?q=Quiet%20Harbor");
  assert.deepEqual(shareTarget(shared).films, [{ title: "Quiet Harbor", year: 2019 }]);
  // The same split over the share sheet's fields, a year Letterboxd does not know, and a film
  // link: the titles a search may find it by (a slug's 4-digit suffix is its year, or part of
  // the title).
  assert.deepEqual(
    shareTarget({ title: "Quiet Harbor (2019) on Letterboxd", url: "https://boxd.it/abcd" }),
    { path: "/search?q=Quiet%20Harbor", films: [{ title: "Quiet Harbor", year: 2019 }] },
  );
  assert.deepEqual(shareTarget({ text: "Untitled Short on Letterboxd https://boxd.it/x1" }).films, [
    { title: "Untitled Short" },
  ]);
  assert.deepEqual(shareTarget({ url: "https://letterboxd.com/film/blade-runner-2049/" }), {
    path: "/search?q=blade%20runner",
    films: [{ title: "blade runner", year: 2049 }, { title: "blade runner 2049" }],
  });
  assert.deepEqual(shareTarget({ url: "https://letterboxd.com/film/heat-1/" }).films, [
    { title: "heat" },
    { title: "heat 1" },
  ]);
  // Nothing else is looked up: a TMDB link opens as it is, other text and IMDb links search.
  assert.equal(shareTarget({ url: "https://www.themoviedb.org/movie/603" }).films, undefined);
  assert.equal(shareTarget({ text: "Perfect Days" }).films, undefined);
  assert.equal(
    shareTarget({ title: "Heat (1995) - IMDb", url: "https://www.imdb.com/title/tt0113277/" })
      .films,
    undefined,
  );
});

// Search rows as TMDB gives them (poster, date and rating, so the search keeps them).
function row(id: number, title: string, date: string) {
  return {
    id,
    title,
    original_title: title,
    poster_path: `/p${id}.jpg`,
    release_date: date,
    vote_average: 7,
    genre_ids: [18],
    adult: false,
    overview: "",
    popularity: 10,
    video: false,
    vote_count: 100,
    original_language: "en",
    backdrop_path: null,
  };
}

Deno.test("GET /share opens a shared Letterboxd film when the title search has one clear match, else search", async () => {
  await using tmdb = await startFakeTmdb();
  const rows = [
    row(1001, "Quiet Harbor", "2019-04-02"),
    row(1002, "Quiet Harbor", "1961-01-01"),
    row(1003, "The Grand Budapest Hotel", "2014-02-26"),
    row(1004, "Heat", "1995-12-15"),
    row(1005, "Heat", "1986-03-14"),
    row(1006, "Blade Runner 2049", "2017-10-04"),
  ];
  // As TMDB: the rows whose title holds the query, in the year asked for.
  tmdb.search = (query) => {
    const q = (query.get("query") ?? "").toLowerCase();
    const year = query.get("year");
    const results = rows.filter((r) =>
      r.title.toLowerCase().includes(q) && (!year || r.release_date.startsWith(year))
    );
    return { page: 1, results, total_pages: 1, total_results: results.length };
  };
  await using app = await testApp({ env: tmdbEnv(tmdb) });
  const share = async (query: Record<string, string>) => {
    const res = await app.request(`/share?${new URLSearchParams(query)}`);
    assert.equal(res.status, 303);
    return res.headers.get("location");
  };

  // The report: Letterboxd's text with a short link, and the film link of the contract.
  assert.equal(
    await share({ text: "Quiet Harbor (2019) on Letterboxd https://boxd.it/abcd" }),
    "/movies/1001",
  );
  assert.equal(
    await share({ url: "https://letterboxd.com/film/the-grand-budapest-hotel/" }),
    "/movies/1003",
  );
  assert.equal(
    await share({ url: "https://letterboxd.com/film/blade-runner-2049/" }),
    "/movies/1006",
  );
  // Two films of that title and no year to tell them apart: the search shows both.
  assert.equal(await share({ url: "https://letterboxd.com/film/heat/" }), "/search?q=heat");
  assert.equal(await share({ url: "https://letterboxd.com/film/heat-1995/" }), "/movies/1004");
  // Nothing found: the search, with the title.
  assert.equal(
    await share({ url: "https://letterboxd.com/film/no-such-film/" }),
    "/search?q=no%20such%20film",
  );
  // TMDB failing: the search too, never an error page.
  tmdb.override = (req) =>
    req.path === "/search/movie" ? Response.json({}, { status: 503 }) : undefined;
  assert.equal(
    await share({ text: "Quiet Harbor (2019) on Letterboxd https://boxd.it/abcd" }),
    "/search?q=Quiet%20Harbor",
  );
  // Other shares never search: a plain text goes to the search page as it is.
  const before = tmdb.requests.length;
  assert.equal(await share({ text: "Quiet Harbor" }), "/search?q=Quiet%20Harbor");
  assert.equal(tmdb.requests.length, before);
});
