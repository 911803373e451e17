/**
 * The history import's JSON reader (lib/library/history/import/json_reader.ts): it reads what
 * JSON.parse reads, refuses what JSON.parse refuses, holds its bounds, and gives the event
 * loop a turn between values (one JSON.parse of a 20 MiB Trakt export held it for seconds).
 */
import assert from "node:assert/strict";
import {
  JsonReadError,
  MAX_DEPTH,
  MAX_VALUE_CHARS,
  readJson,
} from "../lib/library/history/import/json_reader.ts";
import { parseHistoryFile } from "../lib/library/history/import/parse.ts";
import { Slicer } from "../lib/library/history/import/slices.ts";
import { Problem } from "../lib/core/problem.ts";
import { traktFiles } from "./helpers/history_files.ts";
import { traktExport } from "./helpers/heavy_history_files.ts";

const read = (text: string, onItem?: () => void) =>
  readJson(text, { slicer: new Slicer(), onItem });

Deno.test("the JSON reader reads every document as JSON.parse does", async () => {
  const documents = [
    JSON.stringify(Object.values(traktFiles()).flat()),
    JSON.stringify(Object.values(traktFiles()).flat(), null, 2),
    JSON.stringify({ exportedAt: "2024-01-01", watched: [{ title: "Heat" }], myList: [], x: 1 }),
    ' \r\n\t[ "a\\"b", "\\\\", "\\\\\\"", "\\u00e9\\n", "Amélie 🎬", 1.5e-3, -0, true, false, null ] ',
    '[[], {}, [[1, [2]], {"a": {"b": [3]}}], "]", "}", ",", "[", "{"]',
    '{"__proto__": {"x": 1}, "a": 1, "a": 2, "": [ ], "n": null}',
    '{"watched": [ {"t": "x"} , {"t": "y"} ], "myList": [1, 2.5, "3"]}',
    '"just a string"',
    "42",
    "null",
    "[]",
    "{}",
  ];
  for (const text of documents) {
    const got = await read(text);
    assert.deepEqual(got, JSON.parse(text), text.slice(0, 80));
    if (text.includes("__proto__")) {
      assert.ok(Object.hasOwn(got as object, "__proto__"), "__proto__ is an own key");
      assert.equal(Object.getPrototypeOf(got), Object.prototype);
    }
  }
});

Deno.test("the JSON reader refuses what JSON.parse refuses", async () => {
  const broken = [
    "",
    "[",
    "[1,]",
    "[1 2]",
    '{"a":1,}',
    '{"a" 1}',
    "{a:1}",
    '["abc]',
    "[tru]",
    "[01]",
    "[1] x",
    '{"a":1}}',
    "[NaN]",
    "['a']",
  ];
  for (const text of broken) {
    assert.throws(() => JSON.parse(text), `JSON.parse refuses ${text}`);
    await assert.rejects(read(text), JsonReadError, text);
  }
});

Deno.test("the JSON reader's bounds hold at their edge: a value's length and the nesting inside it", async () => {
  const edge = `["${"x".repeat(MAX_VALUE_CHARS - 2)}"]`;
  assert.equal(((await read(edge)) as string[])[0].length, MAX_VALUE_CHARS - 2);
  await assert.rejects(
    read(`["${"x".repeat(MAX_VALUE_CHARS - 1)}"]`),
    (e) => e instanceof JsonReadError && e.bound === "size",
  );
  const nested = (depth: number) => `[${"[".repeat(depth)}${"]".repeat(depth)}]`;
  // The top array is walked, the one inside it too: nesting is counted from the value below.
  assert.ok(Array.isArray(await read(`[${nested(MAX_DEPTH)}]`)));
  await assert.rejects(
    read(`[${nested(MAX_DEPTH + 1)}]`),
    (e) => e instanceof JsonReadError && e.bound === "depth",
  );
  // Through the import: a JSON entry past the bound is the file's 400 invalid_file.
  const huge = new TextEncoder().encode(
    JSON.stringify([{ movie: { title: "x".repeat(MAX_VALUE_CHARS), ids: { tmdb: 1 } } }]),
  );
  await assert.rejects(
    parseHistoryFile(huge),
    (e) => e instanceof Problem && e.status === 400 && e.code === "invalid_file",
  );
});

Deno.test("the JSON reader counts each entry of the arrays it walks, so the row limit stops it early", async () => {
  let items = 0;
  await read('{"watched": [1, 2, 3], "myList": [4], "other": {"a": [5, 6]}}', () => items++);
  assert.equal(items, 4, "the walked arrays' entries, not those inside a value");
  items = 0;
  await assert.rejects(
    read(`[${"1,".repeat(1000)}1]`, () => {
      if (++items > 10) throw new Error("limit");
    }),
    /limit/,
  );
  assert.equal(items, 11, "read no further than the entry past the limit");
});

Deno.test("a Trakt export is read a value at a time: with a slicer that yields at every chance, a timer runs between its entries", async () => {
  const file = traktExport(512 * 1024);
  const entries = (JSON.parse(new TextDecoder().decode(file)) as unknown[]).length;
  let turns = 0;
  let ticking = true;
  const tick = () => {
    turns++;
    if (ticking) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  // sliceMs 0: every tick() yields, so the turns count the chances the reader gives.
  const parsed = await parseHistoryFile(file, { slicer: new Slicer(0) });
  ticking = false;
  assert.equal(parsed.format, "trakt");
  assert.equal(parsed.rows.length, entries);
  // Before, the whole document was one JSON.parse and its rows one loop: no turn at all.
  assert.ok(turns >= entries, `${turns} turns for ${entries} entries`);
});
