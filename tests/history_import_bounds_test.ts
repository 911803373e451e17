/**
 * Reading a history file stays bounded (issue 24 items 1, 5, 6): a ZIP entry stops inflating
 * at its declared size, an entry's header is checked before it is parsed, the work yields to
 * the event loop, a file holds at most 500,000 rows, and a title over 500 characters marks its
 * row invalid instead of failing the run. Every file is built here, none is committed.
 */
import assert from "node:assert/strict";
import { zipSync } from "fflate";
import { MAX_ROWS, parseHistoryFile } from "../lib/library/history/import/parse.ts";
import { Problem } from "../lib/core/problem.ts";
import { declareSize, watchedCsv } from "./helpers/heavy_history_files.ts";
import { bytesOf } from "./helpers/history_files.ts";

async function assertProblem(promise: Promise<unknown>, code: string, detail?: RegExp) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof Problem, String(error));
    assert.equal(error.status, 400);
    assert.equal(error.code, code);
    if (detail) assert.match(error.message, detail);
    return true;
  });
}

const HEADER = "Date,Name,Year,Letterboxd URI\n";

Deno.test("a ZIP entry that inflates past its declared size is 400 invalid_file, decoding stops there", async () => {
  // 24 MiB of CSV declared as 1 MiB: the reader must stop after 1 MiB, not inflate it all.
  const real = new Uint8Array(24 * 1024 * 1024).fill(0x61);
  real.set(bytesOf(HEADER));
  const bomb = declareSize(zipSync({ "watched.csv": real }, { level: 9 }), 1024 * 1024);
  assert.ok(bomb.length < 100_000, `${bomb.length} bytes`);
  await assertProblem(parseHistoryFile(bomb), "invalid_file", /inflates past the size/);
});

Deno.test("a Letterboxd entry whose first 16 KiB hold no header line is refused before parsing", async () => {
  const oneLine = new Uint8Array(200 * 1024).fill(0x61);
  const zip = zipSync({ "watched.csv": oneLine }, { level: 9 });
  await assertProblem(parseHistoryFile(zip), "invalid_file", /not a Letterboxd CSV/);
});

Deno.test("reading a large file gives the event loop turns: a timer set before it fires before it ends", async () => {
  const file = watchedCsv(60_000);
  let turns = 0;
  let ticking = true;
  const tick = () => {
    turns++;
    if (ticking) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const parsed = await parseHistoryFile(file);
  ticking = false;
  assert.equal(parsed.rows.length, 60_000);
  assert.ok(turns >= 2, `the timer ran ${turns} times while the file was read`);
});

Deno.test("a ZIP with 130,000 rows reads (no spread of a large array into a call)", async () => {
  const zip = zipSync({ "watched.csv": watchedCsv(130_000) }, { level: 9 });
  const parsed = await parseHistoryFile(zip);
  assert.equal(parsed.rows.length, 130_000);
  assert.equal(parsed.rows[129_999].title, "Film 129999");
});

Deno.test("the row limit holds at its edge: exactly the limit reads, one more row is 400 too_many_rows", async () => {
  assert.equal(MAX_ROWS, 500_000);
  const file = watchedCsv(50);
  assert.equal((await parseHistoryFile(file, { maxRows: 50 })).rows.length, 50);
  await assertProblem(parseHistoryFile(file, { maxRows: 49 }), "too_many_rows");
  const zip = zipSync({ "watched.csv": file, "diary.csv": watchedCsv(1) });
  await assertProblem(parseHistoryFile(zip, { maxRows: 50 }), "too_many_rows");
  // JSON exports count their entries too.
  const trakt = bytesOf(JSON.stringify(
    Array.from({ length: 3 }, (_, i) => ({ movie: { title: `F${i}`, ids: { tmdb: i + 1 } } })),
  ));
  assert.equal((await parseHistoryFile(trakt, { maxRows: 3 })).rows.length, 3);
  await assertProblem(parseHistoryFile(trakt, { maxRows: 2 }), "too_many_rows");
});

Deno.test("the default limit: 500,001 rows are 400 too_many_rows", async () => {
  const zip = zipSync({ "watched.csv": watchedCsv(MAX_ROWS + 1) }, { level: 9 });
  await assertProblem(parseHistoryFile(zip), "too_many_rows", /500,000/);
});

Deno.test("a title over 500 characters is cut and marks its row invalid; 500 is a title", async () => {
  const long = "x".repeat(1024 * 1024);
  const edge = "y".repeat(500);
  const file = bytesOf(
    HEADER + `2024-01-01,${long},2000,a\n2024-01-01,${edge},2000,b\n2024-01-01,Heat,1995,c\n`,
  );
  const { rows } = await parseHistoryFile(file);
  assert.equal(rows.length, 3);
  assert.equal(rows[0].invalid, true);
  assert.equal([...rows[0].title].length, 501, "500 characters and an ellipsis");
  assert.equal(rows[1].invalid, undefined);
  assert.equal(rows[1].title, edge);
  assert.equal(rows[2].title, "Heat");
});
