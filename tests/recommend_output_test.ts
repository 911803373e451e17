import assert from "node:assert/strict";
import { BadOutputError, parseOutput } from "../lib/recommend/parse_output.ts";
import { watchedHash } from "../lib/recommend/cache.ts";
import { AVOID_TITLES, buildMessages } from "../lib/recommend/prompt.ts";
import type { Taste } from "../lib/recommend/taste.ts";

Deno.test("AI content in the agreed shape parses to candidates", () => {
  const content = JSON.stringify({
    recommendations: [
      { title: "Heat", year: 1995, reason: "Crime epic." },
      { title: "Amélie", year: null, reason: "Whimsy." },
    ],
  });
  assert.deepEqual(parseOutput(content), [
    { title: "Heat", year: 1995, reason: "Crime epic." },
    { title: "Amélie", year: null, reason: "Whimsy." },
  ]);
});

Deno.test("AI content inside a ```json code fence parses", () => {
  const content = 'Here you go:\n```json\n{"recommendations":[{"title":"Heat","year":1995,' +
    '"reason":"x"}]}\n```\nEnjoy!';
  assert.deepEqual(parseOutput(content), [{ title: "Heat", year: 1995, reason: "x" }]);
});

Deno.test("AI content that is a bare top-level array parses", () => {
  const content = '[{"title":"Heat","year":1995,"reason":"x"},{"title":"Ran"}]';
  assert.deepEqual(parseOutput(content), [
    { title: "Heat", year: 1995, reason: "x" },
    { title: "Ran", year: null, reason: "" },
  ]);
});

Deno.test("AI items without a usable title or year are dropped, a quoted year is read", () => {
  const content = JSON.stringify({
    recommendations: [{ title: "" }, { year: 1999 }, "Heat", { title: "Ran", year: "1985" }, {
      title: "Alien",
      year: 1979,
      reason: "x",
    }],
  });
  assert.deepEqual(parseOutput(content), [
    { title: "Ran", year: 1985, reason: "" },
    { title: "Alien", year: 1979, reason: "x" },
  ]);
  assert.throws(() => parseOutput('[{"title":"Heat","year":"mid-nineties"}]'), BadOutputError);
  assert.throws(() => parseOutput('[{"title":"Heat","year":19955}]'), BadOutputError);
});

Deno.test("AI content that is not the agreed shape is a BadOutputError", () => {
  for (
    const content of [
      "",
      "   ",
      null,
      "I recommend Heat and Ran.",
      '{"movies":[{"title":"Heat"}]}',
      '{"recommendations":"Heat"}',
      '{"recommendations":[]}',
      '{"recommendations":[{"name":"Heat"}]}',
      "```json\n{not json}\n```",
    ]
  ) {
    assert.throws(() => parseOutput(content), BadOutputError, String(content));
  }
});

Deno.test("watched_hash is the SHA-256 hex of the ids sorted ascending and joined by commas", async () => {
  assert.equal(
    await watchedHash([10, 2, 1]),
    "19bc041f049a3f2ce6c2cd841d8ae13a5afa24fc9fa1413794354498a1539968",
  );
  assert.equal(await watchedHash([1, 10, 2]), await watchedHash([2, 1, 10]));
});

function bigTaste(): Taste {
  const long = "A Very Long Title ".repeat(40);
  const movies = Array.from({ length: 5000 }, (_, i) => ({
    title: `${long}${i}`,
    year: 2000,
    genres: ["Drama", "Crime", "Thriller", "Mystery", "History", "War"],
  }));
  return {
    watchedIds: movies.map((_, i) => i + 1),
    // loadTaste caps these; the prompt caps them again so a bigger taste cannot grow it.
    recent: movies,
    genres: Array.from(
      { length: 100 },
      (_, i) => ({ name: `Genre ${"x".repeat(200)} ${i}`, count: i }),
    ),
    myListIds: movies.map((_, i) => i + 1),
    myList: movies,
  };
}

Deno.test("the prompt stays bounded for a history of 5,000 long titles and a huge avoid list", () => {
  const avoid = Array.from({ length: 5000 }, (_, i) => `${"Rejected ".repeat(50)}${i}`);
  const messages = buildMessages(bigTaste(), { want: 20, avoid });
  const size = messages.reduce((n, m) => n + m.content.length, 0);
  assert.ok(size < 30_000, `prompt is ${size} characters`);
  const user = messages[1].content;
  const watchedLines = user.split("Saved to watch later")[0].split("\n").filter((l) =>
    l.startsWith("- ")
  );
  assert.equal(watchedLines.length, 60);
  const avoidLines = user.split("Do not recommend any of these:\n")[1].split("\n")
    .filter((l) => l.startsWith("- "));
  assert.equal(avoidLines.length, AVOID_TITLES);
  assert.match(user, /Films watched: 5000\./);
});
