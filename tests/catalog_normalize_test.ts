import assert from "node:assert/strict";
import {
  detailRow,
  formatDuration,
  pickTrailer,
  roundRating,
  toMovieDetail,
  yearOf,
} from "../lib/catalog/normalize.ts";
import { tmdbMovie } from "../lib/catalog/tmdb_schemas.ts";
import { testApp } from "./helpers/app.ts";
import { detailBody, startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";

const IMAGE = "https://image.tmdb.org/t/p";

/** The detail response for a fake body, without HTTP. */
function normalise(body: Record<string, unknown>) {
  return toMovieDetail(detailRow(tmdbMovie.parse(body), 0), IMAGE);
}

function video(overrides: Record<string, unknown>) {
  return {
    iso_639_1: "en",
    iso_3166_1: "US",
    name: "A video",
    key: "key",
    site: "YouTube",
    size: 1080,
    type: "Trailer",
    official: true,
    published_at: "2020-01-01T00:00:00.000Z",
    id: crypto.randomUUID(),
    ...overrides,
  };
}

function cast(name: string, order: number) {
  return { adult: false, id: order + 1, name, character: "Someone", order };
}

function withCredits(cast: unknown[], crew: unknown[]) {
  return { credits: { cast, crew } };
}

Deno.test("the fixture movie normalises to the agreed detail, end to end", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({
    env: { ...tmdbEnv(fake), TMDB_IMAGE_BASE_URL: "https://img.example/t/p" },
  });
  const res = await t.request("/api/movies/84892");
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), {
    id: 84892,
    title: "The Perks of Being a Wallflower",
    poster: "https://img.example/t/p/w500/aKCvdFFF5n80P2VdS7d8YBwbCjh.jpg",
    rating: 7.8,
    year: 2012,
    duration: "1h 43m",
    runtime: 103,
    genres: ["Drama"],
    actors: ["Logan Lerman", "Emma Watson", "Ezra Miller", "Mae Whitman", "Kate Walsh"],
    directors: ["Stephen Chbosky"],
    description:
      "Pittsburgh, Pennsylvania, 1991. High school freshman Charlie is a wallflower, always watching life from the sidelines, until two senior students, Sam and her stepbrother Patrick, become his mentors, helping him discover the joys of friendship, music and love.",
    // The fixture has two official YouTube trailers: 2013-01-04 (this one) and 2012-06-04.
    trailer: "https://www.youtube.com/watch?v=x0nTfbg24Qs",
  });
});

Deno.test("no poster gives an empty poster string", () => {
  assert.equal(normalise(detailBody(1, { poster_path: null })).poster, "");
  assert.equal(normalise(detailBody(1, { poster_path: "" })).poster, "");
});

Deno.test("no runtime and runtime 0 give N/A and null; others give <h>h <m>m", () => {
  for (const runtime of [null, 0, undefined]) {
    const d = normalise(detailBody(1, { runtime }));
    assert.equal(d.duration, "N/A", String(runtime));
    assert.equal(d.runtime, null, String(runtime));
  }
  assert.equal(formatDuration(45), "0h 45m");
  assert.equal(formatDuration(60), "1h 0m");
  assert.equal(formatDuration(181), "3h 1m");
  assert.deepEqual(
    { ...normalise(detailBody(1, { runtime: 136 })) },
    { ...normalise(detailBody(1, { runtime: 136 })), duration: "2h 16m", runtime: 136 },
  );
});

Deno.test("rating is vote_average rounded to one decimal", () => {
  assert.equal(roundRating(7.803), 7.8);
  assert.equal(roundRating(8.25), 8.3);
  assert.equal(roundRating(6.94999), 6.9);
  assert.equal(roundRating(0), 0);
  assert.equal(normalise(detailBody(1, { vote_average: 8.433 })).rating, 8.4);
});

Deno.test("year comes from release_date, 0 when absent", () => {
  assert.equal(yearOf("1999-10-15"), 1999);
  assert.equal(normalise(detailBody(1, { release_date: "" })).year, 0);
  assert.equal(normalise(detailBody(1, { release_date: null })).year, 0);
  assert.equal(normalise(detailBody(1, { release_date: "2024-02-29" })).year, 2024);
});

Deno.test("the trailer is the most recently published official YouTube Trailer", () => {
  const pick = (results: unknown[]) => normalise(detailBody(1, { videos: { results } })).trailer;
  assert.equal(
    pick([
      video({ key: "old", published_at: "2019-01-01T00:00:00.000Z" }),
      video({ key: "newest", published_at: "2021-06-01T00:00:00.000Z" }),
      video({ key: "middle", published_at: "2020-01-01T00:00:00.000Z" }),
    ]),
    "https://www.youtube.com/watch?v=newest",
  );
  // Newer, but unofficial, on another site, or not a Trailer: all passed over.
  assert.equal(
    pick([
      video({ key: "official", published_at: "2019-01-01T00:00:00.000Z" }),
      video({ key: "unofficial", official: false, published_at: "2024-01-01T00:00:00.000Z" }),
      video({ key: "vimeo", site: "Vimeo", published_at: "2024-01-01T00:00:00.000Z" }),
      video({ key: "teaser", type: "Teaser", published_at: "2024-01-01T00:00:00.000Z" }),
      video({ key: "clip", type: "Clip", published_at: "2024-01-01T00:00:00.000Z" }),
    ]),
    "https://www.youtube.com/watch?v=official",
  );
  assert.equal(pick([video({ official: false }), video({ site: "Vimeo" })]), null);
  assert.equal(pick([]), null);
  assert.equal(pickTrailer([]), null);
});

Deno.test("actors are the first five cast by order, fewer when the cast is small", () => {
  const shuffled = [
    cast("F", 5),
    cast("C", 2),
    cast("A", 0),
    cast("G", 6),
    cast("E", 4),
    cast("B", 1),
    cast("D", 3),
  ];
  assert.deepEqual(normalise(detailBody(1, withCredits(shuffled, []))).actors, [
    "A",
    "B",
    "C",
    "D",
    "E",
  ]);
  assert.deepEqual(
    normalise(detailBody(1, withCredits([cast("Solo", 3), cast("Lead", 0)], []))).actors,
    ["Lead", "Solo"],
  );
  assert.deepEqual(normalise(detailBody(1, withCredits([], []))).actors, []);
});

Deno.test("directors are the crew with job Director; none gives an empty list", () => {
  const crew = [
    { name: "Writer", job: "Screenplay", department: "Writing" },
    { name: "First", job: "Director", department: "Directing" },
    { name: "Assistant", job: "Assistant Director", department: "Directing" },
    { name: "Second", job: "Director", department: "Directing" },
    { name: "First", job: "Director", department: "Directing" },
  ];
  assert.deepEqual(normalise(detailBody(1, withCredits([], crew))).directors, ["First", "Second"]);
  assert.deepEqual(
    normalise(detailBody(1, withCredits([], [{ name: "Writer", job: "Screenplay" }]))).directors,
    [],
  );
});

Deno.test("genres are stored and answered as names", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  fake.movies.set(
    7,
    detailBody(7, {
      genres: [{ id: 28, name: "Action" }, { id: 878, name: "Science Fiction" }],
      poster_path: null,
      runtime: 0,
    }),
  );
  const body = await (await t.request("/api/movies/7")).json();
  assert.deepEqual(body.genres, ["Action", "Science Fiction"]);
  assert.equal(body.poster, "");
  assert.equal(body.duration, "N/A");
  assert.equal(body.runtime, null);
  const [row] = await t.store.query<{ genres: string[]; genre_ids: number[]; runtime: null }>(
    `select genres, genre_ids, runtime from public.movies where catalog_id = 7`,
  );
  assert.deepEqual(row, {
    genres: ["Action", "Science Fiction"],
    genre_ids: [28, 878],
    runtime: null,
  });
});
