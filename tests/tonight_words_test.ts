/**
 * Tonight's plain reading of words without an AI (docs/recommend.md, "Tonight"): what it reads,
 * and that it leaves out what it does not recognise rather than guessing.
 */
import assert from "node:assert/strict";
import { readWords } from "@/lib/recommend/tonight/keywords.ts";
import { cleanAiReading } from "@/lib/recommend/tonight/interpretation.ts";

Deno.test("readWords: genres, an excluded genre, a mood, a runtime and a decade", () => {
  const r = readWords("A funny sci-fi comedy from the 80s under 90 minutes, no horror please");
  assert.deepEqual(r.genres.sort(), ["Comedy", "Science Fiction"]);
  assert.deepEqual(r.excludeGenres, ["Horror"]);
  assert.deepEqual(r.moods, ["light"]);
  assert.equal(r.runtimeMax, 90);
  assert.deepEqual([r.yearFrom, r.yearTo], [1980, 1989]);
  assert.deepEqual(r.languages, []);
  assert.equal(r.onlyMine, false);
});

Deno.test("readWords: hours, years after and before, a language, streaming, My List, an example", () => {
  const r = readWords(
    "Something like Heat, but Korean, after 2010 and before 2020, less than 2 hours, " +
      "streaming on my services or from my list",
  );
  assert.equal(r.runtimeMax, 120);
  assert.deepEqual([r.yearFrom, r.yearTo], [2011, 2019]);
  assert.deepEqual(r.languages, ["ko"]);
  assert.equal(r.onlyMine, true);
  assert.equal(r.fromMyList, true);
  assert.deepEqual(r.similarTo, [{ title: "Heat", year: null }]);
});

Deno.test("readWords: moods by their usual words, short alone, and nothing guessed from plain words", () => {
  assert.deepEqual(readWords("I want a good cry").moods, ["cry"]);
  assert.deepEqual(readWords("edge of my seat, gripping").moods, ["tense"]);
  assert.deepEqual(readWords("a mind-bending puzzle").moods, ["mindBending"]);
  assert.deepEqual(readWords("something short").moods, ["short"]);
  assert.equal(readWords("something short").runtimeMax, null);
  const plain = readWords("whatever you think, from afar");
  assert.deepEqual(
    [plain.genres, plain.moods, plain.languages, plain.runtimeMax, plain.similarTo],
    [[], [], [], null, []],
  );
});

Deno.test("cleanAiReading: the object or its wrapper; none of the keys is no reading", () => {
  const inner = { genres: ["drama"], runtimeMax: 1441, languages: ["en", "eng"], moods: ["cry"] };
  assert.deepEqual(cleanAiReading(inner), cleanAiReading({ interpretation: inner }));
  const r = cleanAiReading(inner)!;
  assert.deepEqual([r.genres, r.runtimeMax, r.languages, r.moods], [["Drama"], null, ["en"], [
    "cry",
  ]]);
  assert.equal(cleanAiReading({ recommendations: [] }), null);
  assert.equal(cleanAiReading([1, 2]), null);
  assert.deepEqual(
    [
      cleanAiReading({ yearFrom: 2010, yearTo: 1990 })!.yearFrom,
      cleanAiReading({
        yearFrom: 2010,
        yearTo: 1990,
      })!.yearTo,
    ],
    [1990, 2010],
  );
});
