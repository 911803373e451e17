/**
 * Trakt's movie object (docs/trakt.md, "Reads"): trakt and tmdb ids are the catalog id, the
 * slug is `title-year` in lower case with dashes, and `extended=full` adds the stored details.
 */
import assert from "node:assert/strict";
import { traktMovie, type TraktMovieRow, traktSlug } from "@/lib/connections/trakt/movie_object.ts";

const row: TraktMovieRow = {
  catalog_id: 155,
  title: "The Dark Knight",
  year: 2008,
  imdb_id: "tt0468569",
  overview: "Batman raises the stakes.",
  release_date: "2008-07-16",
  runtime: 152,
  vote_average: 8.5,
  vote_count: 30000,
  genres: ["Drama", "Action", "Science Fiction"],
  release_dates: {
    FR: [{ type: 3, date: "2008-08-13", certification: "12", note: "" }],
    US: [
      { type: 1, date: "2008-07-14", certification: "", note: "premiere" },
      { type: 3, date: "2008-07-18", certification: "PG-13", note: "" },
    ],
  },
};

Deno.test("a movie object names the film by title, year and ids: trakt and tmdb the catalog id, slug title-year", () => {
  assert.deepEqual(traktMovie(row), {
    title: "The Dark Knight",
    year: 2008,
    ids: { trakt: 155, slug: "the-dark-knight-2008", imdb: "tt0468569", tmdb: 155 },
  });
});

Deno.test("extended=full adds tagline, overview, released, runtime, country, rating, votes, language, genres, certification", () => {
  const full = traktMovie(row, { full: true });
  assert.deepEqual(full, {
    title: "The Dark Knight",
    year: 2008,
    ids: { trakt: 155, slug: "the-dark-knight-2008", imdb: "tt0468569", tmdb: 155 },
    tagline: null,
    overview: "Batman raises the stakes.",
    released: "2008-07-16",
    runtime: 152,
    country: null,
    rating: 8.5,
    votes: 30000,
    language: null,
    genres: ["drama", "action", "science-fiction"],
    certification: "PG-13",
  });
});

Deno.test("a film without a stored row is named by its ids alone: slug the catalog id, imdb null", () => {
  const bare: TraktMovieRow = {
    catalog_id: 42,
    title: null,
    year: null,
    imdb_id: null,
    overview: null,
    release_date: null,
    runtime: null,
    vote_average: null,
    vote_count: null,
    genres: null,
    release_dates: null,
  };
  assert.deepEqual(traktMovie(bare), {
    title: null,
    year: null,
    ids: { trakt: 42, slug: "42", imdb: null, tmdb: 42 },
  });
  const full = traktMovie(bare, { full: true });
  assert.equal(full.released, null);
  assert.deepEqual(full.genres, []);
  assert.equal(full.certification, null);
});

Deno.test("a slug drops accents and punctuation, keeps other scripts, and has no year when the film has none", () => {
  assert.equal(traktSlug(1, "Amélie", 2001), "amelie-2001");
  assert.equal(
    traktSlug(1, "Mission: Impossible – Fallout", 2018),
    "mission-impossible-fallout-2018",
  );
  assert.equal(traktSlug(1, "  WALL·E  ", 2008), "wall-e-2008");
  assert.equal(traktSlug(7, "千と千尋の神隠し", 2001), "千と千尋の神隠し-2001");
  assert.equal(traktSlug(1, "Untitled", 0), "untitled");
  assert.equal(traktSlug(9, "!!!", 2020), "9");
});
