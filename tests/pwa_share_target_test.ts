/**
 * The share target (docs/website.md, "Installable app"): a link or text shared from another
 * app opens the movie or a search for it.
 */
import assert from "node:assert/strict";
import { shareDestination } from "../lib/web/pwa/movie_link.ts";
import { testApp } from "./helpers/app.ts";

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
